package org.modelfs.view;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The one self-contained HTML page of {@code modelfs view} (docs/VIEW.md): the facts as JSON in a
 * {@code <script type="application/json">} element, the vendored layout library (dagre, MIT,
 * {@link #DAGRE}), our script and style, all inline. A Content-Security-Policy meta tag allows
 * inline script and style and {@code data:} images only, so no request can leave the page.
 */
public final class Page {
  /** The vendored layout library: @dagrejs/dagre 1.1.4, {@code dist/dagre.min.js} as npm ships it. */
  public static final String DAGRE = "dagre-1.1.4.min.js";
  /** Its SHA-256, checked by PageTest so the vendored file is never edited by accident. */
  public static final String DAGRE_SHA256 = "2cde82baf0b9232c00aa13932945ff92a17fb08c6885a635592330a4c2c567c5";
  /** The page's policy: nothing but what is inline. */
  public static final String CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

  private Page() {}

  /** The page for {@code title} (shown, HTML-escaped) and {@code json} (the facts, any JSON text). */
  public static String html(String title, String json) {
    StringBuilder sb = new StringBuilder(json.length() + 200_000);
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CSP).append("\">\n")
        .append("<title>").append(text(title)).append(" — modelfs view</title>\n")
        .append("<style>\n").append(resource("view.css")).append("</style>\n</head><body>\n")
        .append(resource("view.html"))
        .append("<script type=\"application/json\" id=\"modelfs-data\">").append(scriptSafe(json)).append("</script>\n")
        .append("<script>\n").append(resource(DAGRE)).append("\n</script>\n")
        .append("<script>\n").append(resource("view.js")).append("</script>\n</body></html>\n");
    return sb.toString();
  }

  /**
   * JSON text made safe inside a {@code <script>} element: every {@code <}, {@code >} and
   * {@code &} written as a JSON escape (so no {@code </script>} or {@code <!--} can appear),
   * and U+2028/U+2029 escaped too. Outside strings JSON has none of these characters, so the
   * result parses to the same value.
   */
  public static String scriptSafe(String json) {
    StringBuilder sb = new StringBuilder(json.length() + 16);
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      switch (c) {
        case '<' -> sb.append("\\u003c");
        case '>' -> sb.append("\\u003e");
        case '&' -> sb.append("\\u0026");
        case '\u2028' -> sb.append("\\u2028");
        case '\u2029' -> sb.append("\\u2029");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  /** {@code s} as HTML text. */
  static String text(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** A resource of this package as text. */
  static String resource(String name) {
    try (InputStream in = Page.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the jar lacks org/modelfs/view/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
