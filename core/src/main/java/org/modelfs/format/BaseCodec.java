package org.modelfs.format;

import org.modelfs.model.ModelFormat;

/** What every codec states the same way: its format, its magic as messages name it, and its place among the readers. */
public abstract class BaseCodec implements Codec {
  private final ModelFormat format;
  private final String magic;
  private final int sniffOrder;

  /**
   * @param format the format read and written
   * @param magic the magic {@link #sniff} looks for, as messages name it, or {@code null}
   * @param sniffOrder {@link Codec#sniffOrder()}
   */
  protected BaseCodec(ModelFormat format, String magic, int sniffOrder) {
    this.format = format;
    this.magic = magic;
    this.sniffOrder = sniffOrder;
  }

  @Override
  public final ModelFormat format() {
    return format;
  }

  @Override
  public final String magic() {
    return magic;
  }

  @Override
  public final int sniffOrder() {
    return sniffOrder;
  }
}
