package org.modelfs.s3;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.nio.spi.s3.S3FileSystem;
import software.amazon.nio.spi.s3.S3FileSystemProvider;
import software.amazon.nio.spi.s3.S3XFileSystemProvider;
import software.amazon.nio.spi.s3.config.S3NioSpiConfiguration;
import software.amazon.nio.spi.s3.util.S3XFileSystemInfo;

/**
 * The path of an {@code s3x://KEY[:SECRET]@host/bucket/key} URI on a file system of exactly that
 * URI's credentials. The AWS NIO provider 2.3.0 keeps one file system per
 * {@code KEY@endpoint/bucket} (its {@code S3XFileSystemInfo.key()}: the secret is not part of
 * it) and hands it to every later URI of that access key: a wrong secret used first made the
 * right one fail until the JVM exited, and a right one first let in a later URI with a wrong
 * secret, or none. Here the file systems are kept per endpoint, bucket, access key <em>and</em>
 * secret, made as the provider makes its own (same configuration, same provider instance);
 * {@link ObjectStore#of} then keys its client by the same credentials. A URI without credentials
 * is the provider's ({@code null}: {@link Path#of(URI)}).
 */
final class UriCredentials {
  private record Key(String endpoint, String bucket, String accessKey, String secret) {}

  private static final Map<Key, S3FileSystem> FILE_SYSTEMS = new ConcurrentHashMap<>();

  private UriCredentials() {}

  /** The path of {@code uri} if it is an {@code s3x:} URI with credentials, else {@code null}. */
  static Path path(URI uri) {
    if (!"s3x".equalsIgnoreCase(uri.getScheme()) || uri.getRawUserInfo() == null) {
      return null; // no credentials in the URI: the provider's own file system
    }
    if (uri.getHost() == null || uri.getPath() == null || !uri.getPath().matches("/[^/]+(/.*)?")) {
      throw new IllegalArgumentException("an s3x URI names s3x://[KEY:SECRET@]host[:port]/bucket/key; this one has"
          + (uri.getHost() == null ? " no host" : " no bucket"));
    }
    S3XFileSystemInfo info = new S3XFileSystemInfo(uri);
    Key key = new Key(info.endpoint(), info.bucket(), info.accessKey(), info.accessSecret());
    S3FileSystem fs = FILE_SYSTEMS.computeIfAbsent(key, UriCredentials::open);
    return fs.getPath(uri.getScheme() + ":/" + uri.getPath()); // as the provider's getPath(URI)
  }

  /** A file system of {@code k}'s credentials, configured as the provider's {@code getFileSystem(URI)} does. */
  private static S3FileSystem open(Key k) {
    S3NioSpiConfiguration config = new S3NioSpiConfiguration().withEndpoint(k.endpoint()).withBucketName(k.bucket());
    config.withCredentials(k.accessKey(), k.secret());
    try {
      Constructor<S3FileSystem> c = S3FileSystem.class.getDeclaredConstructor(S3FileSystemProvider.class,
          S3NioSpiConfiguration.class);
      c.setAccessible(true);
      S3FileSystem fs = c.newInstance(provider(), config);
      ProviderTempDirs.register(fs); // its empty staging directory, removed at exit
      return fs;
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      // the provider's file system has no such constructor (a version other than the one this
      // module is built and tested with): never fall back to the shared file system
      throw new IllegalStateException("s3x:// URIs with credentials need the AWS NIO provider for S3 this module was"
          + " built with (2.3.0): " + e, e);
    }
  }

  /** The installed {@code s3x} provider (the one {@link Path#of(URI)} uses). */
  private static S3FileSystemProvider provider() {
    for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
      if (p instanceof S3XFileSystemProvider s) {
        return s;
      }
    }
    throw new ProviderNotFoundException("no s3x file system provider is installed");
  }
}
