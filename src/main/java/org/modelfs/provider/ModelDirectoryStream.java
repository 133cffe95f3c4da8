package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The entries of one directory of a mounted model, from a snapshot of its names taken when the
 * stream is opened; one iterator per stream, as the {@link DirectoryStream} contract says.
 */
final class ModelDirectoryStream implements DirectoryStream<Path> {
  private final ModelPath dir;
  private final List<String> names;
  private final Filter<? super Path> filter;
  private final OpenResources resources;
  private volatile boolean closed;
  private boolean iterated;

  ModelDirectoryStream(ModelPath dir, List<String> names, Filter<? super Path> filter, OpenResources resources) {
    this.dir = dir;
    this.names = List.copyOf(names);
    this.filter = filter;
    this.resources = resources;
  }

  @Override
  public synchronized Iterator<Path> iterator() {
    if (closed) {
      throw new ClosedDirectoryStreamException();
    }
    if (iterated) {
      throw new IllegalStateException("iterator() was already called on this directory stream");
    }
    iterated = true;
    return new Iterator<>() {
      private int next;
      private Path ahead;

      @Override
      public boolean hasNext() {
        while (ahead == null && !closed && next < names.size()) {
          Path p = dir.resolve(names.get(next++));
          try {
            if (filter == null || filter.accept(p)) {
              ahead = p;
            }
          } catch (IOException e) {
            throw new DirectoryIteratorException(e);
          }
        }
        return ahead != null;
      }

      @Override
      public Path next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Path p = ahead;
        ahead = null;
        return p;
      }
    };
  }

  @Override
  public void close() {
    closed = true;
    resources.remove(this);
  }
}
