package org.modelfs.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 in front of a store's HTTP port that, while armed, cuts connections
 * mid-answer: a connection whose answers pass {@link #cutAfter} bytes gets only that many and is
 * then closed (a GET answering fewer bytes than its Content-Length, a connection reset in the
 * middle of a body). {@link #cuts} connections are cut, then it forwards faithfully again.
 */
public final class CutProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int target;
  private final AtomicInteger cuts = new AtomicInteger();
  private volatile long cutAfter = Long.MAX_VALUE;
  /** Connections cut so far. */
  private final AtomicInteger cut = new AtomicInteger();

  public CutProxy(int target) throws IOException {
    this.target = target;
    this.server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::accept, "cut-proxy-accept");
    t.setDaemon(true);
    t.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  /** The next {@code connections} connections whose answers pass {@code bytes} bytes are cut there. */
  public void cut(int connections, long bytes) {
    cutAfter = bytes;
    cuts.set(connections);
  }

  /** Connections cut so far. */
  public int cutSoFar() {
    return cut.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket c = server.accept();
        Socket s = new Socket(InetAddress.getLoopbackAddress(), target);
        pipe(c, s, false);
        pipe(s, c, true);
      } catch (IOException e) {
        // closed
      }
    }
  }

  private void pipe(Socket from, Socket to, boolean answers) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[16 * 1024];
      long sent = 0;
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        int n;
        while ((n = in.read(buf)) > 0) {
          long limit = cutAfter;
          if (answers && sent + n > limit && cuts.get() > 0 && cuts.getAndDecrement() > 0) {
            out.write(buf, 0, (int) Math.max(0, limit - sent));
            out.flush();
            cut.incrementAndGet();
            break;
          }
          out.write(buf, 0, n);
          sent += n;
        }
      } catch (IOException e) {
        // the peer closed or reset
      }
      try (from; to) {
        // both directions end with either
      } catch (IOException e) {
        // closing
      }
    }, "cut-proxy-pipe");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
