package org.modelfs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md "Mounting a model" and docs/FILESYSTEM.md §6.2: where ModelFS is loaded by a class
 * loader of its own, as {@code mvn exec:java} loads an application, the URI form
 * {@code FileSystems.newFileSystem(uri, env)} finds no "samediff" provider (the JDK looks in the
 * system class loader), while the class-loader overload and {@code ModelFileSystems.open} work.
 * Run in a JVM whose system class path holds only a launcher that loads the application and the
 * library into a {@code URLClassLoader}, as exec:java does.
 */
class DocUriClassLoaderTest {
  /** The line the pages show, in the application below as written there. */
  static final String OVERLOAD = "FileSystems.newFileSystem(uri, Map.of(), ModelFileSystems.class.getClassLoader())";

  static final String APP = """
      import java.net.URI;
      import java.nio.file.*;
      import java.util.Map;
      import org.modelfs.ModelFileSystems;

      public class App {
        public static void main(String[] args) throws Exception {
          Path model = Path.of(args[0]);
          URI uri = URI.create("samediff:" + model.toUri() + "!/");
          try {
            FileSystems.newFileSystem(uri, Map.of()).close();
            System.out.println("newFileSystem(uri, env): mounted");
          } catch (ProviderNotFoundException e) {
            System.out.println("newFileSystem(uri, env): " + e.getMessage());
          }
          try {
            Path.of(uri);
            System.out.println("Path.of(uri): a path");
          } catch (FileSystemNotFoundException e) {
            System.out.println("Path.of(uri): " + e.getMessage());
          }
          try (FileSystem fs = %s) {
            System.out.println("with the class loader: " + Files.size(fs.getPath("/params/layer0/W")));
          }
          try (FileSystem fs = ModelFileSystems.open(model)) {
            System.out.println("ModelFileSystems.open: " + Files.size(fs.getPath("/params/layer0/W")));
          }
        }
      }
      """.formatted(OVERLOAD);

  /** The system class path's only class: loads the application with the library, as exec:java does. */
  static final String LAUNCHER = """
      import java.net.*;
      import java.nio.file.Path;
      import java.util.Arrays;

      public class Launcher {
        public static void main(String[] args) throws Exception {
          URL[] urls = Arrays.stream(args[0].split(java.io.File.pathSeparator))
              .map(e -> { try { return Path.of(e).toUri().toURL(); } catch (MalformedURLException x) { throw new RuntimeException(x); } })
              .toArray(URL[]::new);
          ClassLoader app = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
          Thread.currentThread().setContextClassLoader(app);
          app.loadClass("App").getMethod("main", String[].class).invoke(null, (Object) new String[] {args[1]});
        }
      }
      """;

  @TempDir Path tmp;

  @BeforeAll
  static void fromTheRepositoryRoot() {
    Assumptions.assumeTrue("from-root".equals(System.getProperty("modelfs.examples")),
        "runs in the surefire execution 'examples', from the repository's root");
  }

  @Test
  void theUriFormNeedsTheClassLoaderOverloadOutsideTheSystemClassPath() throws Exception {
    for (String page : List.of("README.md", "docs/FILESYSTEM.md")) {
      assertTrue(Files.readString(Path.of(page)).replaceAll("\\s+", " ").contains("`" + OVERLOAD + "`"), page + " shows " + OVERLOAD);
    }
    String library = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> e.endsWith(".jar") || e.endsWith("classes") && !e.endsWith("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
    Path app = compile("App", APP, library);
    Path launcher = compile("Launcher", LAUNCHER, "");
    Path model = Files.copy(Path.of("examples", "mlp.fb"), tmp.resolve("m.fb"));

    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-cp", launcher.toString(), "Launcher",
        library + File.pathSeparator + app, model.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "finished");
    assertEquals(0, p.exitValue(), out);
    assertEquals(List.of("newFileSystem(uri, env): Provider \"samediff\" not found",
        "Path.of(uri): Provider \"samediff\" not installed", "with the class loader: 256",
        "ModelFileSystems.open: 256"), out.lines().toList());
  }

  private Path compile(String name, String source, String classPath) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve(name));
    Path file = Files.writeString(dir.resolve(name + ".java"), source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = javac.run(null, null, err, "-d", dir.toString(), "-cp", classPath, "-proc:none", file.toString());
    assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
    Files.delete(file);
    return dir;
  }
}
