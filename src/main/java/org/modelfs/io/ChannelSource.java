package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link ByteSource} over a {@link SeekableByteChannel}: positional {@link FileChannel} reads
 * when the file's provider offers them, otherwise position-and-read under the channel's lock
 * (e.g. a container on a provider without {@code FileChannel}).
 */
public final class ChannelSource implements ByteSource {
  private final String name;
  private final SeekableByteChannel channel;
  private final FileChannel fileChannel;

  private ChannelSource(String name, SeekableByteChannel channel) {
    this.name = name;
    this.channel = channel;
    this.fileChannel = channel instanceof FileChannel fc ? fc : null;
  }

  /** Opens {@code file} for reading on whatever file system it lives on. */
  public static ChannelSource open(Path file) throws IOException {
    SeekableByteChannel ch;
    try {
      ch = FileChannel.open(file, StandardOpenOption.READ);
    } catch (UnsupportedOperationException e) {
      ch = java.nio.file.Files.newByteChannel(file, StandardOpenOption.READ);
    }
    Path fileName = file.getFileName();
    return new ChannelSource(fileName == null ? file.toString() : fileName.toString(), ch);
  }

  /** Wraps an already open channel; closing this source closes it. */
  public static ChannelSource of(String name, SeekableByteChannel channel) {
    return new ChannelSource(name, channel);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() throws IOException {
    return channel.size();
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (fileChannel != null) {
      return fileChannel.read(dst, position);
    }
    synchronized (channel) {
      channel.position(position);
      return channel.read(dst);
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
