package org.modelfs.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * How every message names a model or an output file (docs/OBJECT-STORES.md §1): a
 * path of the default file system as it was given; any other path (an object in S3 or Azure, a
 * file in HDFS) by its URI — its key alone would not say which store, bucket or container — with
 * any credentials in the URI's user part left out, so a message or a log never holds a secret.
 */
public final class Shown {
  private Shown() {}

  /** A URI's user part ({@code KEY:SECRET@}) right after its {@code scheme://}. */
  private static final Pattern USER_PART = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/\\s@]*@");

  /**
   * {@code text} (a message, a line the CLI prints) with the user part of every URI in it left
   * out: {@code s3x://KEY:SECRET@host/b/k} → {@code s3x://host/b/k}. For messages built from what
   * the user typed (a command's argument), which {@link #path} never saw.
   */
  public static String text(String text) {
    return text == null ? null : USER_PART.matcher(text).replaceAll("$1");
  }

  /** {@code p} for a message. */
  public static String path(Path p) {
    if (p.getFileSystem() == FileSystems.getDefault()) {
      return p.toString();
    }
    URI u;
    try {
      u = p.toUri();
    } catch (RuntimeException e) {
      return p.toString();
    }
    if (u.getRawUserInfo() == null) {
      return u.toString();
    }
    try {
      return new URI(u.getScheme(), null, u.getHost(), u.getPort(), u.getPath(), u.getQuery(), u.getFragment()).toString();
    } catch (URISyntaxException e) {
      String s = u.toString();
      return u.getScheme() + "://" + s.substring(s.indexOf('@') + 1);
    }
  }
}
