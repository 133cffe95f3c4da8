package org.modelfs.verify;

import java.io.IOException;
import java.util.Objects;
import org.modelfs.format.ModelFormatException;

/**
 * One problem {@code modelfs verify} found: where (a path of the mounted tree such as {@code
 * /tags/default/params/layer0/W}, or a file such as {@code m.sdz!model.sdnb}) and what, in words
 * that name the offset where there is one.
 *
 * @param path the tree path or file the problem is in
 * @param message what is wrong
 */
public record Problem(String path, String message) {
  public Problem {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
  }

  /** A reader's refusal: the file (or zip entry) it names, and the rest of its message. */
  static Problem of(ModelFormatException e) {
    return of(e.file(), e);
  }

  /** {@code e} as a problem of {@code file}, without repeating the file its message starts with. */
  static Problem of(String file, IOException e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new Problem(file, m.startsWith(file + ": ") ? m.substring(file.length() + 2) : m);
  }

  /** The line {@code modelfs verify} prints: {@code <path>: <message>}. */
  @Override
  public String toString() {
    return path + ": " + message;
  }
}
