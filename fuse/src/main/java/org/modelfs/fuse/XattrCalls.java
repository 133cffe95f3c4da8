package org.modelfs.fuse;

import java.nio.charset.StandardCharsets;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * The extended-attribute calls (docs/MOUNT.md "Extended attributes", "Commit"): the
 * {@code samediff} view through {@link Writes} (a staged file's kept values included), and the
 * mount root's control names {@link Control#PID} and {@link Control#COMMIT}.
 */
final class XattrCalls {
  private final Writes writes;

  XattrCalls(Writes writes) {
    this.writes = writes;
  }

  /** {@code p} is the model's path, {@code root} whether the call names the mount's root. */
  int get(String p, boolean root, String name, Pointer value, long size) throws Exception {
    String v = root && name.equals(Control.PID) ? String.valueOf(ProcessHandle.current().pid()) : writes.getxattr(p, name);
    return v == null ? -ErrorCodes.ENODATA() : answer(v.getBytes(StandardCharsets.UTF_8), value, size);
  }

  int list(String p, Pointer list, long size) throws Exception {
    return answer(Xattrs.list(writes.xattrNames(p)), list, size);
  }

  void set(String p, boolean root, String name, Pointer value, long size) throws Exception {
    byte[] raw = new byte[(int) size];
    value.get(0, raw, 0, raw.length);
    if (root && name.equals(Control.COMMIT)) {
      writes.commit();
    } else {
      writes.setxattr(p, name, Xattrs.value(raw));
    }
  }

  /** getxattr(2)'s protocol: the size when asked with size 0, ERANGE when it does not fit. */
  private static int answer(byte[] b, Pointer out, long size) {
    if (size == 0) {
      return b.length;
    }
    if (size < b.length) {
      return -ErrorCodes.ERANGE();
    }
    out.put(0, b, 0, b.length);
    return b.length;
  }
}
