package org.modelfs.format.sdnb;

import java.util.List;

/** Manifests our writer makes, as seeds for {@link ManifestFuzzTest} (written by {@code org.modelfs.fuzz.FuzzSeeds}). */
public final class ManifestSeeds {
  private ManifestSeeds() {}

  /** A few manifests: empty, one entry, several with odd names and large numbers. */
  public static List<byte[]> seeds() {
    return List.of(
        Manifest.write(List.of()),
        Manifest.write(List.of(new Manifest.Entry("w", 64, 128))),
        Manifest.write(List.of(new Manifest.Entry("layer0/W", 0, 128), new Manifest.Entry("layer0/b", 128, 32),
            new Manifest.Entry("ünï%/\0", Long.MAX_VALUE - 1, 0), new Manifest.Entry("", 7, 1L << 40))));
  }
}
