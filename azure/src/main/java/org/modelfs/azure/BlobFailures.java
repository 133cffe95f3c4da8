package org.modelfs.azure;

import com.azure.storage.blob.models.BlobStorageException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * A failed request, in the user's words: an {@link IOException} naming the blob as the user wrote
 * it ({@code azb://container/key}), one line, with the service's status and error code — never its
 * request URL or headers (the SDK's own message), so never a credential.
 */
final class BlobFailures {
  private BlobFailures() {}

  /** A container that does not exist. */
  static final class NoSuchContainerException extends NoSuchFileException {
    private static final long serialVersionUID = 1L;

    NoSuchContainerException(String file) {
      super(file, null, "no such container '" + container(file) + "'");
    }

    private static String container(String file) {
      String rest = file.substring("azb://".length());
      int slash = rest.indexOf('/');
      return slash < 0 ? rest : rest.substring(0, slash);
    }
  }

  /** {@code t}, the failure of request {@code what} on {@code blob}, as an {@link IOException}. */
  static IOException of(RuntimeException t, String blob, String what) {
    IOException out;
    if (t instanceof BlobStorageException e) {
      int status = e.getStatusCode();
      String code = e.getErrorCode() == null ? null : e.getErrorCode().toString();
      if ("ContainerNotFound".equals(code)) {
        out = new NoSuchContainerException(blob);
      } else if (status == 404) {
        out = new NoSuchFileException(blob, null, what + ": " + (code == null ? "not found" : code));
      } else if (status == 412 || "BlobAlreadyExists".equals(code)) {
        out = new BlobStore.PreconditionFailed(blob, what + ": the service refused the request's condition (HTTP "
            + status + (code == null ? "" : " " + code) + ")");
      } else {
        out = new FileSystemException(blob, null, what + " failed: HTTP " + status + (code == null ? "" : " " + code));
      }
    } else if (t instanceof UncheckedIOException u) {
      out = new FileSystemException(blob, null, what + " failed: " + u.getCause());
    } else {
      Throwable c = t;
      while (c.getCause() != null && c.getCause() != c) {
        c = c.getCause();
      }
      if (c instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
        out = new InterruptedIOException(blob + ": interrupted during " + what);
      } else {
        out = new FileSystemException(blob, null, what + " failed: " + c.getClass().getSimpleName()
            + (c.getMessage() == null ? "" : ": " + c.getMessage()));
      }
    }
    out.initCause(t);
    return out;
  }
}
