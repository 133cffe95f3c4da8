package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.modelfs.view.Page;

/**
 * The page's structure without a browser: hostile names cannot end the data element or open a
 * comment, the data parses back to the same value, the policy forbids every request, and no
 * {@code src}/{@code href} names anything outside the page.
 */
class ViewPageTest {
  static final List<String> HOSTILE = List.of("</script><script>alert(1)</script>", "<!--", "-->", "</SCRIPT >",
      "a\u2028b\u2029c", "&lt;", "\"quoted\" \\ back", "<img src=x onerror=alert(1)>", "]]>", "\u0000\u001f");

  @Test
  void hostileNamesStayInsideTheDataElement() throws Exception {
    Map<String, Object> facts = Map.of("model", String.join("|", HOSTILE), "names", HOSTILE);
    String json = Json.write(facts);
    String html = Page.html(String.join("|", HOSTILE), json);
    Matcher m = Pattern.compile("<script type=\"application/json\" id=\"modelfs-data\">(.*?)</script>", Pattern.DOTALL)
        .matcher(html);
    assertTrue(m.find(), "the data element");
    String data = m.group(1);
    assertFalse(data.contains("<"), "no '<' in the data: " + data);
    assertFalse(data.contains("\u2028") || data.contains("\u2029"));
    assertEquals(ViewFacts.plain(new JsonStream(new StringReader(json), "a").value(Integer.MAX_VALUE)),
        ViewFacts.plain(new JsonStream(new StringReader(data), "b").value(Integer.MAX_VALUE)), "the same value");
    String title = html.substring(html.indexOf("<title>"), html.indexOf("</title>"));
    assertFalse(title.substring(7).contains("<"), title);
    // every script element of the page: ours (data, dagre, view.js), none opened by a name
    assertEquals(3, Pattern.compile("<script\\b", Pattern.CASE_INSENSITIVE).matcher(html).results().count());
  }

  @Test
  void nothingOutsideThePageIsNamed() {
    String html = Page.html("t", "{}");
    assertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"" + Page.CSP + "\">"));
    assertTrue(Page.CSP.startsWith("default-src 'none';"));
    assertFalse(Pattern.compile("(src|href)\\s*=\\s*[\"']?(https?:|//)", Pattern.CASE_INSENSITIVE).matcher(html).find(),
        "no src or href to a network address");
    assertFalse(html.contains("<link") || html.contains("@import") || html.contains("url(http"));
  }
}
