package org.modelfs.provider;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code samediff:<container URI>!<path>} URI form (docs/FILESYSTEM.md §6): building one, and
 * splitting one into the container's URI and the path inside. The inner path is
 * percent-encoded (including {@code !} and {@code %}), so the container part ends at the last
 * {@code !/}, and containers that are themselves inside a {@code jar:} or {@code samediff:}
 * file work.
 */
final class ModelUris {
  static final String SCHEME = "samediff";

  /** A parsed URI: the container's URI and the absolute path inside ({@code /} when none). */
  record Parts(URI container, String path) {}

  private ModelUris() {}

  static URI of(URI container, String absolutePath) {
    String s = SCHEME + ":" + container.toString() + "!" + encode(absolutePath);
    try {
      return new URI(s);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot form a URI from " + s, e);
    }
  }

  static Parts parse(URI uri) {
    if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase(SCHEME)) {
      throw new IllegalArgumentException("not a samediff: URI: " + uri);
    }
    String ssp = uri.getRawSchemeSpecificPart();
    if (uri.getRawFragment() != null) {
      throw new IllegalArgumentException("a samediff: URI has no fragment: " + uri);
    }
    String container = ssp;
    String path = "/";
    int sep = ssp.lastIndexOf("!/");
    if (sep >= 0) {
      container = ssp.substring(0, sep);
      path = decode(ssp.substring(sep + 1));
    } else if (ssp.endsWith("!")) {
      container = ssp.substring(0, ssp.length() - 1);
    }
    try {
      URI c = new URI(container);
      if (c.getScheme() == null) {
        throw new IllegalArgumentException("the container part of " + uri + " has no scheme (e.g. file:)");
      }
      return new Parts(c, path);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("bad container URI in " + uri + ": " + e.getMessage(), e);
    }
  }

  /** Percent-encodes everything but unreserved characters and {@code /} as UTF-8. */
  static String encode(String path) {
    StringBuilder sb = new StringBuilder(path.length() + 16);
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
          || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return sb.toString();
  }

  static String decode(String raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
        int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("bad percent escape at index " + i + " of '" + raw + "'");
        }
        out.write(hi * 16 + lo);
        i += 2;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < raw.length()) {
          b = raw.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        out.write(b, 0, b.length);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
