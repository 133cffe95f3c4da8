package org.modelfs.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's proxy forwards every byte each way unchanged, in order, with its delay on, and
 * counts exactly what it forwarded (an echo server behind it; no timed assertion).
 */
class DelayProxyTest {
  @Test
  void forwardsAndCountsEveryByteEachWay() throws Exception {
    byte[] sent = new byte[3 << 20];
    new Random(34).nextBytes(sent);
    try (ServerSocket echo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> {
        try (Socket s = echo.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
          in.transferTo(out);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      server.start();
      try (DelayProxy proxy = new DelayProxy(echo.getLocalPort())) {
        proxy.oneWayDelayMillis(1);
        byte[] got;
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
          Thread writer = new Thread(() -> {
            try {
              c.getOutputStream().write(sent);
              c.shutdownOutput();
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
          writer.start();
          got = c.getInputStream().readAllBytes();
          writer.join();
        }
        server.join();
        assertArrayEquals(sent, got);
        assertEquals(sent.length, proxy.up.get());
        assertEquals(sent.length, proxy.down.get());
      }
    }
  }
}
