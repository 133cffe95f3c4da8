package org.modelfs;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The sure way to mount a model: {@code FileSystems.newFileSystem(path)} asks the JDK's zip
 * provider first, which takes any {@code .sdz} (a zip) for itself; these methods always mount
 * with the {@code samediff} provider.
 */
public final class ModelFileSystems {
  /** The URI scheme: {@code samediff:<container URI>!/<path>}. */
  public static final String SCHEME = "samediff";

  /**
   * The provider found through this library's own class loader when the system class loader does
   * not see it (an application server, a plug-in): the API finds its implementation as a service,
   * so this package never depends on the implementation's package.
   */
  private static final class Fallback {
    static final FileSystemProvider INSTANCE = load();

    private static FileSystemProvider load() {
      for (FileSystemProvider p : ServiceLoader.load(FileSystemProvider.class, ModelFileSystems.class.getClassLoader())) {
        if (p.getScheme().equalsIgnoreCase(SCHEME)) {
          return p;
        }
      }
      throw new IllegalStateException("the samediff provider is not registered as a service"
          + " (META-INF/services/java.nio.file.spi.FileSystemProvider is missing from the class path)");
    }
  }

  private ModelFileSystems() {}

  /** Mounts the model at {@code model} (any format) with default options. */
  public static FileSystem open(Path model) throws IOException {
    return open(model, Map.of());
  }

  /**
   * Mounts the model at {@code model} (any format, on any file system) with the options of
   * docs/FILESYSTEM.md §6.1 ({@code readOnly}, {@code format}, …). The file system is not
   * registered for {@code Path.of(URI)}; use {@code FileSystems.newFileSystem(uri(model), env)}
   * for that. A file that is not a model, or a directory, is an {@code IOException} (a
   * {@code ModelFormatException} naming what was wrong).
   */
  public static FileSystem open(Path model, Map<String, ?> env) throws IOException {
    try {
      return provider().newFileSystem(model, env);
    } catch (UnsupportedOperationException e) {
      // FileSystems.newFileSystem needs "not mine" to be unchecked, so it can ask other
      // providers; here ModelFS was asked for: a file that is no model is an IOException
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new FileSystemException(model.toString(), null, e.getMessage());
    }
  }

  /** The URI of the root of the model at {@code model}: {@code samediff:<model URI>!/}. */
  public static URI uri(Path model) {
    return URI.create(SCHEME + ":" + model.toUri() + "!/");
  }

  /**
   * A creation-time attribute of an array file, for {@code Files.newByteChannel(path, options,
   * attrs)} and {@code Files.createFile}: {@code attribute("dtype", "DOUBLE")},
   * {@code attribute("shape", new long[] {3, 4})}, {@code attribute("order", "f")},
   * {@code attribute("kind", "CONSTANT")}.
   */
  public static FileAttribute<Object> attribute(String name, Object value) {
    return new FileAttribute<>() {
      @Override
      public String name() {
        return SCHEME + ":" + name;
      }

      @Override
      public Object value() {
        return value;
      }

      @Override
      public String toString() {
        return name() + "=" + value;
      }
    };
  }

  /** The installed {@code samediff} provider, or a private instance where it is not installed. */
  public static FileSystemProvider provider() {
    for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
      if (p.getScheme().equalsIgnoreCase(SCHEME)) {
        return p;
      }
    }
    return Fallback.INSTANCE;
  }
}
