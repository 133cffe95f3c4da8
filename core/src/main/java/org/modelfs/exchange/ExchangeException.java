package org.modelfs.exchange;

import java.io.IOException;

/**
 * A file of an exchange format ({@code .npy}, {@code .safetensors}) that cannot be read or an
 * array that cannot be written in it; the message names the file and what is wrong.
 */
public class ExchangeException extends IOException {
  private static final long serialVersionUID = 1L;

  /** {@code file: problem}. */
  public ExchangeException(String file, String problem) {
    super(file + ": " + problem);
  }
}
