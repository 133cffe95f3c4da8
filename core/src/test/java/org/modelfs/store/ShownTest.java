package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** {@link Shown#text}: every URI's user part left out of a line, whatever else it holds. */
class ShownTest {
  @Test
  void theUserPartOfEveryUriInALineIsLeftOut() {
    assertEquals("modelfs cp: s3x://host:9000/b/k.fb: nothing was written; s3x://h/b/x@y",
        Shown.text("modelfs cp: s3x://KEY:Se%2Fc+r=t@host:9000/b/k.fb: nothing was written; s3x://u:p@h/b/x@y"));
    assertEquals("a s3x://host/b/m.fb and azb://c/m.fb, hdfs://nn:8020/m.fb", Shown.text(
        "a s3x://KEY:SECRET@host/b/m.fb and azb://c/m.fb, hdfs://user@nn:8020/m.fb"));
    assertEquals("/tmp/a@b.fb and mail me@x.org", Shown.text("/tmp/a@b.fb and mail me@x.org"));
    assertNull(Shown.text(null));
  }
}
