package org.modelfs;

import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributeView;

/**
 * The {@code samediff} attribute view of a mounted model's files, by type; the same attributes
 * are available by name as {@code Files.readAttributes(path, "samediff:*")}.
 */
public interface SamediffFileAttributeView extends BasicFileAttributeView {

  /** The view name, {@value #NAME}. */
  String NAME = "samediff";

  @Override
  default String name() {
    return NAME;
  }

  @Override
  SamediffFileAttributes readAttributes() throws IOException;
}
