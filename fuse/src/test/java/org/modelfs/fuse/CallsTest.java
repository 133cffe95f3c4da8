package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.modelfs.format.fb.GraphJsonException;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * The one place where a FUSE call's exception becomes its errno (docs/MOUNT.md "Errors →
 * errno"), without a kernel: the result passes through, each refusal is the table's errno and is
 * logged with its message (a missing name and an unsupported attribute are not), an Error is
 * EIO, and a change on a read-only mount is EROFS without running.
 */
class CallsTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final MountLog log = new MountLog(new PrintStream(out, true, StandardCharsets.UTF_8));

  private String logged() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void resultsPassAndRefusalsAreTheirErrnoLogged() {
    Calls calls = new Calls(log, false);
    assertEquals(42, calls.run("read", "/params/W", () -> 42));
    assertEquals(-ErrorCodes.ENOENT(), calls.run("stat", "/params/nope", () -> {
      throw new NoSuchFileException("/params/nope");
    }));
    assertEquals(-ErrorCodes.EOPNOTSUPP(), calls.run("setxattr", "/params/W", () -> {
      throw new UnsupportedOperationException("security.x");
    }));
    assertEquals("", logged(), "a missing name and an unsupported attribute are not logged");
    assertEquals(-ErrorCodes.ENOTEMPTY(), calls.done("rmdir", "/params/layer0", () -> {
      throw new DirectoryNotEmptyException("/params/layer0");
    }));
    assertEquals(-ErrorCodes.EINVAL(), calls.done("close", "/graph.json", () -> {
      throw new GraphJsonException("/graph.json", List.of("variable 'x' has no op"));
    }));
    assertEquals(-ErrorCodes.EIO(), calls.run("read", "/params/W", () -> {
      throw new NoClassDefFoundError("org/modelfs/Gone");
    }));
    String l = logged();
    assertTrue(l.contains("rmdir /params/layer0: DirectoryNotEmptyException"), l);
    assertTrue(l.contains("close /graph.json: GraphJsonException") && l.contains("variable 'x' has no op"), l);
    assertTrue(l.contains("read /params/W: NoClassDefFoundError"), l);
  }

  @Test
  void aChangeOnAReadOnlyMountIsEROFSAndDoesNotRun() {
    AtomicBoolean ran = new AtomicBoolean();
    assertEquals(-ErrorCodes.EROFS(), new Calls(log, true).change("rm", "/params/W", () -> ran.set(true)));
    assertEquals(false, ran.get());
    assertEquals(0, new Calls(log, false).change("rm", "/params/W", () -> ran.set(true)));
    assertEquals(true, ran.get());
  }
}
