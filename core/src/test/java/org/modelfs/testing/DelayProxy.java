package org.modelfs.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP forwarder on 127.0.0.1 in front of a store's port that counts the bytes on the wire in
 * each direction (HTTP headers included) and delays every chunk by a one-way delay in each
 * direction (10 ms each way = 20 ms RTT). The delay is a propagation delay: chunks are queued with
 * their deadline and written when it passes, so throughput is not capped by it (as with netem's
 * delay, whose default queue of 1,000 packets of loopback's 64 KiB MTU does not cap it either).
 * The benchmark's stand-in for {@code tc qdisc … netem} where the kernel has no {@code sch_netem}.
 */
public final class DelayProxy implements AutoCloseable {
  private static final byte[] EOF = new byte[0];

  final AtomicLong up = new AtomicLong();
  final AtomicLong down = new AtomicLong();
  private final ServerSocket server;
  private final InetSocketAddress target;
  private volatile long delayNanos;

  DelayProxy(int target) throws IOException {
    this(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new InetSocketAddress(InetAddress.getLoopbackAddress(),
        target));
  }

  private DelayProxy(InetSocketAddress listen, InetSocketAddress target) throws IOException {
    this.target = target;
    this.server = new ServerSocket();
    server.bind(listen, 128);
    Thread t = new Thread(this::accept, "delay-proxy-accept");
    t.setDaemon(true);
    t.start();
  }

  /**
   * A proxy listening on {@code listen} (another loopback address, e.g. 127.0.0.2, and a fixed
   * port: a server that advertises that address) and forwarding to {@code target}; a store whose
   * traffic goes to more than one port gives the benchmark such proxies ({@link StoreBenchRun.Store#sideProxies}).
   */
  public static DelayProxy between(InetSocketAddress listen, InetSocketAddress target) throws IOException {
    return new DelayProxy(listen, target);
  }

  int port() {
    return server.getLocalPort();
  }

  /** The one-way delay of every chunk from now on, in each direction. */
  void oneWayDelayMillis(long ms) {
    delayNanos = ms * 1_000_000L;
  }

  void resetCounts() {
    up.set(0);
    down.set(0);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket c = server.accept();
        Socket s = new Socket();
        s.connect(target);
        c.setTcpNoDelay(true);
        s.setTcpNoDelay(true);
        AtomicInteger done = new AtomicInteger();
        pipe(c, s, up, done);
        pipe(s, c, down, done);
      } catch (IOException e) {
        if (!server.isClosed()) {
          System.err.println("delay proxy: " + e);
        }
      }
    }
  }

  /** Reader and writer threads for one direction: chunks are written when their deadline passes. */
  private void pipe(Socket from, Socket to, AtomicLong count, AtomicInteger done) {
    BlockingQueue<Object[]> q = new ArrayBlockingQueue<>(4096);
    Thread reader = new Thread(() -> {
      byte[] buf = new byte[64 * 1024];
      try {
        InputStream in = from.getInputStream(); // not closed here: that would close the socket
        int n;
        while ((n = in.read(buf)) > 0) {
          count.addAndGet(n);
          q.put(new Object[] {System.nanoTime() + delayNanos, Arrays.copyOf(buf, n)});
        }
      } catch (IOException | InterruptedException e) {
        // the peer closed: the writer closes its side
      }
      try {
        q.put(new Object[] {System.nanoTime() + delayNanos, EOF});
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "delay-proxy-read");
    Thread writer = new Thread(() -> {
      try {
        OutputStream out = to.getOutputStream();
        while (true) {
          Object[] chunk = q.take();
          long wait;
          while ((wait = (long) chunk[0] - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
          }
          byte[] b = (byte[]) chunk[1];
          if (b == EOF) {
            to.shutdownOutput();
            break;
          }
          out.write(b);
        }
        if (done.incrementAndGet() < 2) {
          return; // the other direction still runs
        }
      } catch (IOException | InterruptedException e) {
        // the peer closed or reset: both sockets go
      }
      close(from);
      close(to);
    }, "delay-proxy-write");
    reader.setDaemon(true);
    writer.setDaemon(true);
    reader.start();
    writer.start();
  }

  private static void close(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
