package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.VersionedModel;

/**
 * Commits of a single-object model to the store: one conditional PUT, a clear refusal when
 * another writer got there first (before the upload, or at the PUT itself), nothing but the model
 * in the bucket.
 */
class ObjectCommitTest extends StoreTest {
  private String model(String key, ModelFormat format) throws IOException {
    Path local = VersionedModel.local(tmp, "m." + (format == ModelFormat.FB ? "fb" : "sdnb"), format, 4, 1024, 0);
    s3.upload(local, key);
    return key;
  }

  @Test
  void aCommitReplacesTheObjectAndLeavesNothingElseInTheBucket() throws Exception {
    String key = model("commit/one.sdnb", ModelFormat.SDNB);
    for (int v = 1; v <= 3; v++) {
      try (FileSystem fs = ModelFileSystems.open(s3.path(key))) {
        assertEquals(v - 1, VersionedModel.version(fs));
        VersionedModel.write(fs, v);
      }
    }
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
      assertEquals(3, VersionedModel.version(fs));
    }
    assertEquals(List.of(key), s3.keys().stream().filter(k -> k.startsWith("commit/")).toList(),
        "no lock object, journal or temporary in the bucket");
  }

  @Test
  void aMountThatIsNoLongerCurrentIsRefusedBeforeUploadingAndTheOtherModelStays() throws Exception {
    String key = model("stale/m.fb", ModelFormat.FB);
    Path other = VersionedModel.local(tmp, "other.fb", ModelFormat.FB, 4, 1024, 0);
    try (FileSystem fs = ModelFileSystems.open(other)) {
      VersionedModel.write(fs, 7);
    }
    FileSystem fs = ModelFileSystems.open(s3.path(key));
    VersionedModel.write(fs, 1);
    s3.upload(other, key); // another writer committed meanwhile
    long puts = s3.puts();
    IOException e = assertThrows(IOException.class, fs::close);
    assertTrue(e.getMessage().contains("the model changed since it was mounted"), e.getMessage());
    assertEquals(puts, s3.puts(), "nothing was uploaded");
    assertArrayEquals(Files.readAllBytes(other), s3.bytes(key), "the other writer's model is intact");
  }

  @Test
  void aWriterThatLosesAtThePutItselfGetsTheClearErrorAndLosesNothing() throws Exception {
    String key = model("race/m.sdnb", ModelFormat.SDNB);
    Path other = VersionedModel.local(tmp, "winner.sdnb", ModelFormat.SDNB, 4, 1024, 0);
    try (FileSystem fs = ModelFileSystems.open(other)) {
      VersionedModel.write(fs, 9);
    }
    AtomicBoolean once = new AtomicBoolean();
    s3.beforePut(k -> {
      if (k.equals(key) && once.compareAndSet(false, true)) {
        try {
          s3.upload(other, key); // the other writer's PUT lands between our check and our PUT
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }
    });
    try {
      FileSystem fs = ModelFileSystems.open(s3.path(key));
      VersionedModel.write(fs, 1);
      IOException e = assertThrows(IOException.class, fs::close);
      assertTrue(e.getMessage().contains("the model changed since it was mounted"), e.getMessage());
    } finally {
      s3.beforePut(null);
    }
    assertTrue(once.get(), "the race was run");
    assertArrayEquals(Files.readAllBytes(other), s3.bytes(key), "the winner's model is what is stored");
  }

  @Test
  void aNewModelIsCreatedOnlyWhileItsKeyIsStillFree() throws Exception {
    Path local = VersionedModel.local(tmp, "src.fb", ModelFormat.FB, 2, 16, 0);
    String key = "new/created.fb";
    try (FileSystem src = ModelFileSystems.open(local, Map.of("readOnly", "true"));
        FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("create", "true"))) {
      Files.createDirectories(fs.getPath("/params/big"));
      Files.copy(src.getPath("/params/big/w0"), fs.getPath("/params/big/w0"));
    }
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
      assertEquals(0, VersionedModel.version(fs));
    }

    String raced = "new/raced.fb";
    s3.beforePut(k -> {
      if (k.equals(raced)) {
        try {
          s3.upload(local, raced);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }
    });
    try (FileSystem src = ModelFileSystems.open(local, Map.of("readOnly", "true"))) {
      FileSystem fs = ModelFileSystems.open(s3.path(raced), Map.of("create", "true"));
      Files.createDirectories(fs.getPath("/params/big"));
      Files.copy(src.getPath("/params/big/w1"), fs.getPath("/params/big/w1"));
      IOException e = assertThrows(IOException.class, fs::close);
      assertTrue(e.getMessage().contains("the model changed since it was mounted"), e.getMessage());
    } finally {
      s3.beforePut(null);
    }
    assertArrayEquals(Files.readAllBytes(local), s3.bytes(raced), "the model created first is kept");
  }

  /** The zip formats are committed to the store like the others (one object, PK at its start). */
  @ParameterizedTest
  @ValueSource(strings = {"sdz", "zip-tags", "fb", "sdnb", "container"})
  void everySingleFileFormatIsCommittedAsOneObject(String format) throws Exception {
    String key = model("formats/" + format + ".model", ModelFormat.SDNB);
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("format", format))) {
      VersionedModel.write(fs, 4);
    }
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
      assertEquals(4, VersionedModel.version(fs));
    }
    byte[] stored = s3.bytes(key);
    boolean zip = stored[0] == 'P' && stored[1] == 'K';
    assertEquals(format.equals("sdz") || format.equals("zip-tags"), zip, format + " as written");
    assertEquals(format.equals("container"), new String(stored, 0, 14, StandardCharsets.ISO_8859_1)
        .equals("SAMEDIFF_MODEL"), format + " as written");
    assertEquals(List.of(key), s3.keys().stream().filter(k -> k.startsWith("formats/" + format + ".")).toList());
  }

  @Test
  void oneWriterPerModelInAJvm() throws Exception {
    String key = model("one/m.fb", ModelFormat.FB);
    try (FileSystem a = ModelFileSystems.open(s3.path(key)); FileSystem b = ModelFileSystems.open(s3.path(key))) {
      VersionedModel.write(a, 1);
      IOException e = assertThrows(IOException.class, () -> VersionedModel.write(b, 2));
      assertTrue(e.getMessage().contains("another writer in this JVM"), e.getMessage());
    }
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
      assertEquals(1, VersionedModel.version(fs));
    }
  }

  /**
   * A model just over the multipart threshold, its last part a few hundred bytes (5 MiB of
   * parameter and the SDNB's index): committed and read back whole.
   */
  @Test
  void aModelJustOverThePartThresholdCommitsWhole() throws Exception {
    String key = "edge/m.sdnb";
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 1, (5 << 20) / 4, 0);
    long size = Files.size(local);
    s3.upload(local, key);
    System.setProperty("modelfs.s3.multipart-threshold", String.valueOf(size - 1));
    System.setProperty("modelfs.s3.part-size", String.valueOf(5L << 20));
    try {
      try (FileSystem fs = ModelFileSystems.open(s3.path(key))) {
        VersionedModel.write(fs, 9);
      }
      assertEquals(9, VersionedModel.values(s3.path(key), 1)[0]);
      assertEquals(size, s3.bytes(key).length, "the same size: every part, the short last one too");
    } finally {
      System.clearProperty("modelfs.s3.multipart-threshold");
      System.clearProperty("modelfs.s3.part-size");
    }
  }

  @Test
  void aLargeModelIsUploadedInPartsWithTheSameGuarantees() throws Exception {
    String key = "parts/big.sdnb";
    Path local = VersionedModel.local(tmp, "big.sdnb", ModelFormat.SDNB, 3, 1 << 20, 0); // 12 MiB
    s3.upload(local, key);
    System.setProperty("modelfs.s3.multipart-threshold", String.valueOf(6L << 20));
    System.setProperty("modelfs.s3.part-size", String.valueOf(5L << 20));
    try {
      try (FileSystem fs = ModelFileSystems.open(s3.path(key))) {
        VersionedModel.write(fs, 5);
      }
      try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
        assertEquals(5, VersionedModel.version(fs));
      }
      FileSystem stale = ModelFileSystems.open(s3.path(key));
      VersionedModel.write(stale, 6);
      // another writer's object lands while the parts are uploaded: the condition on the upload's
      // completion refuses it (S3Proxy checks that condition in its request handler)
      AtomicBoolean once = new AtomicBoolean();
      s3.beforePut(k -> {
        if (k.equals(key) && once.compareAndSet(false, true)) {
          try {
            s3.upload(local, key);
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        }
      });
      try {
        IOException e = assertThrows(IOException.class, stale::close);
        assertTrue(e.getMessage().contains("the model changed since it was mounted"), e.getMessage());
      } finally {
        s3.beforePut(null);
      }
      assertArrayEquals(Files.readAllBytes(local), s3.bytes(key));
    } finally {
      System.clearProperty("modelfs.s3.multipart-threshold");
      System.clearProperty("modelfs.s3.part-size");
    }
  }
}
