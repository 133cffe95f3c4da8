package org.modelfs.fuse;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * Installing a staged file's bytes into the model (docs/MOUNT.md "Writes"), at close or at a
 * rename onto a model name, with what the mount refuses first and the errno of what the model
 * refuses: the content — the format names this very file: a training.json DL4J cannot read, a
 * graph that is no FlatGraph, text that is no UTF-8 in metadata/, as a graph.json with problems
 * already is — is EINVAL ("Invalid argument", the problems in the log), not EIO: nothing failed
 * to be read or written. A full disk stays ENOSPC.
 */
final class Installs {
  /** What every NumPy .npy file begins with. */
  private static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

  private Installs() {}

  /** Installs {@code s} as the model file {@code p} of {@code fs}. */
  static void install(FileSystem fs, Staged s, String p) throws IOException {
    if (ModelNames.isArrayFile(p) && s.startsWith(NPY_MAGIC)) {
      // np.save(path) writes a header, then the array: stored as the array's bytes, the header
      // became values (a new file's shape counted them), or a size its shape refused at commit
      throw Refusal.invalid(p, "holds a NumPy .npy file (np.save: a header, then the array), but an array's file holds"
          + " its raw bytes: write arr.tofile(path), or import the .npy with modelfs import");
    }
    try {
      s.install(fs.getPath(p));
    } catch (IOException e) {
      boolean names = e instanceof FileSystemException f ? p.equals(f.getFile()) : String.valueOf(e.getMessage()).startsWith(p + ": ");
      if (!names || Errno.of(e) != -ErrorCodes.EIO()) {
        throw e;
      }
      throw Refusal.invalid(p, e instanceof FileSystemException f ? f.getReason() : e.getMessage().substring(p.length() + 2));
    }
  }
}
