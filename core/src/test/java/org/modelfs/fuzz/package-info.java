/**
 * Coverage-guided fuzz targets (Jazzer's JUnit integration, docs/RELIABILITY.md "Fuzzing"): every
 * format's reader, the zip central-directory walk, name mapping and journal recovery (the SDNB
 * manifest parser's target sits in its own package, {@code org.modelfs.format.sdnb}, to reach the
 * package-private parser; so do the container reader's, {@code org.modelfs.format.unified}, and
 * graph.json written back's, {@code org.modelfs.provider}). In the default build each {@code @FuzzTest} runs once per input of its
 * corpus ({@code src/test/resources/org/modelfs/fuzz/<Class>Inputs/<method>/}); {@link FuzzMain}
 * (the {@code -Pfuzz} profile) fuzzes each for a given time. A target may only return or throw
 * an {@link java.io.IOException}: any other throwable, a hang or a heap beyond the run's bound is
 * a finding.
 */
package org.modelfs.fuzz;
