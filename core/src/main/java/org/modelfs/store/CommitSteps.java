package org.modelfs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.Models;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;

/**
 * The one commit path of every backing: (1) {@link CommitStorage#begin} — the stored generation
 * is still the mounted one; (2) every planned file streamed by its codec into a private
 * temporary ({@link CommitStorage#create}) with progress, a full disk or quota explained as a
 * {@code StorageFullException}, forced; (3) the new model — temporaries and the files the plan
 * keeps — read back with the format's reader and checked against the plan; (4)
 * {@link CommitStorage#install}. A failure before (4) discards the temporaries and leaves the
 * model as it was; from (4) on the storage owns them.
 */
public final class CommitSteps {
  private CommitSteps() {}

  /** Commits {@code plan} through {@code storage}; {@code progress} (may be {@code null}) hears the bytes written so far. */
  public static void run(CommitStorage storage, Generation expected, ContainerPlan plan, LongConsumer progress)
      throws IOException {
    if (plan.keepsFiles() && !plan.sharded()) {
      throw new IllegalArgumentException("the plan keeps files, but " + storage.model() + " is written as one file");
    }
    storage.begin(expected);
    List<CommitStorage.Planned> files = new ArrayList<>();
    List<CommitStorage.Temp> temps = new ArrayList<>();
    boolean handedOver = false;
    try {
      long written = 0;
      for (ContainerPlan.PlannedFile f : plan.files()) {
        if (f.kept()) {
          files.add(new CommitStorage.Planned(f.name(), null));
          continue;
        }
        CommitStorage.Temp t = storage.create(f.name());
        temps.add(t);
        try (var ch = t.channel()) {
          written += PlannedFiles.write(plan, f, ch, t.path(), storage.model(), written, progress);
          storage.force(t);
        }
        files.add(new CommitStorage.Planned(f.name(), t));
      }
      readBack(storage, plan, files);
      handedOver = true;
      storage.install(files);
    } catch (IOException | RuntimeException e) {
      if (!handedOver) {
        try {
          storage.discard(temps);
        } catch (IOException | RuntimeException again) {
          e.addSuppressed(again);
        }
      }
      throw e;
    }
  }

  /** Step 3: the new model's files opened with ModelFS's readers and compared with the plan. */
  static void readBack(CommitStorage storage, ContainerPlan plan, List<CommitStorage.Planned> files)
      throws IOException {
    List<ByteSource> sources = new ArrayList<>();
    try {
      for (CommitStorage.Planned p : files) {
        sources.add(p.kept() ? storage.kept(p.name()) : storage.readBack(p.temp()));
      }
    } catch (IOException | RuntimeException e) {
      try {
        Closer.closeAll(sources);
      } catch (IOException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    PlannedFiles.verify(plan, storage.model(), () -> plan.sharded()
        ? Models.openShardSources(storage.model(), sources) : Models.open(storage.model(), sources.get(0)));
  }
}
