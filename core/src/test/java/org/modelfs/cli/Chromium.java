package org.modelfs.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Headless Chromium driven over the DevTools protocol with the JDK's own HTTP and WebSocket
 * client (no test dependency): open a page, evaluate script in it, click, collect what the
 * console said and every request the page made, take a screenshot. Debian's {@code chromium}
 * ({@code .ci/run} installs it); {@link #find} says where it is, or {@code null}.
 */
final class Chromium implements AutoCloseable {
  private final Process process;
  private final Path profile;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<Map<?, ?>>> pending = new ConcurrentHashMap<>();
  /** Every event received, in order (method → params). */
  final List<Map<?, ?>> events = Collections.synchronizedList(new ArrayList<>());

  /** The chromium executable on the PATH, or {@code null}. */
  static Path find() {
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    return null;
  }

  Chromium(Path exe, Path profile) throws IOException, InterruptedException {
    this.profile = profile;
    process = new ProcessBuilder(exe.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
        "--no-first-run", "--disable-extensions", "--remote-debugging-port=0", "--user-data-dir=" + profile,
        "--window-size=1400,900", "about:blank").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
    Matcher m = null;
    for (String line = err.readLine(); line != null; line = err.readLine()) {
      m = Pattern.compile("DevTools listening on ws://([^/]+)/").matcher(line);
      if (m.find()) {
        break;
      }
      m = null;
    }
    if (m == null) {
      process.destroyForcibly();
      throw new IOException("chromium did not start its DevTools server");
    }
    Thread drain = new Thread(() -> {
      try {
        err.transferTo(Writer.nullWriter());
      } catch (IOException ignored) {
        // the browser went away
      }
    });
    drain.setDaemon(true);
    drain.start();
    HttpClient http = HttpClient.newHttpClient();
    String list = http.send(HttpRequest.newBuilder(URI.create("http://" + m.group(1) + "/json/list")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Matcher ws = Pattern.compile("\"type\"\\s*:\\s*\"page\"[^}]*?\"webSocketDebuggerUrl\"\\s*:\\s*\"([^\"]+)\"|"
        + "\"webSocketDebuggerUrl\"\\s*:\\s*\"(ws://[^\"]+/page/[^\"]+)\"").matcher(list);
    if (!ws.find()) {
      throw new IOException("no page target in " + list);
    }
    String url = ws.group(1) != null ? ws.group(1) : ws.group(2);
    socket = http.newWebSocketBuilder().buildAsync(URI.create(url), new Listener()).join();
    for (String domain : List.of("Runtime", "Log", "Network", "Page")) {
      call(domain + ".enable", "{}");
    }
  }

  /** Calls {@code method} with {@code params} (JSON text); returns the result, or throws the protocol's error. */
  Map<?, ?> call(String method, String params) throws IOException {
    int id = ids.incrementAndGet();
    CompletableFuture<Map<?, ?>> f = new CompletableFuture<>();
    pending.put(id, f);
    socket.sendText("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}", true).join();
    try {
      Map<?, ?> reply = f.get(60, TimeUnit.SECONDS);
      if (reply.get("error") != null) {
        throw new IOException(method + ": " + reply.get("error"));
      }
      return (Map<?, ?>) reply.get("result");
    } catch (Exception e) {
      throw e instanceof IOException io ? io : new IOException(method + " failed", e);
    }
  }

  /** Opens {@code file} and waits for its load event. */
  void open(Path file) throws IOException, InterruptedException {
    events.clear();
    call("Page.navigate", "{\"url\":" + quote(file.toUri().toString()) + "}");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      synchronized (events) {
        if (events.stream().anyMatch(e -> "Page.loadEventFired".equals(e.get("method")))) {
          return;
        }
      }
      Thread.sleep(20);
    }
    throw new IOException(file + " did not load in 60 s");
  }

  /** The value of {@code expression} (JSON-serializable) evaluated in the page; a thrown exception fails. */
  Object eval(String expression) throws IOException {
    Map<?, ?> r = call("Runtime.evaluate", "{\"expression\":" + quote(expression) + ",\"returnByValue\":true}");
    if (r.get("exceptionDetails") != null) {
      throw new IOException(expression + " threw " + r.get("exceptionDetails"));
    }
    return ((Map<?, ?>) r.get("result")).get("value");
  }

  /** A PNG screenshot of the page into {@code file}. */
  void screenshot(Path file) throws IOException {
    String data = (String) call("Page.captureScreenshot", "{\"format\":\"png\"}").get("data");
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(data));
  }

  /** What the console and the log said at level warning or error, and every exception thrown. */
  List<String> complaints() {
    List<String> out = new ArrayList<>();
    synchronized (events) {
      for (Map<?, ?> e : events) {
        Map<?, ?> p = (Map<?, ?>) e.get("params");
        switch (String.valueOf(e.get("method"))) {
          case "Runtime.consoleAPICalled" -> {
            if (!List.of("log", "info", "debug").contains(String.valueOf(p.get("type")))) {
              out.add("console." + p.get("type") + ": " + p.get("args"));
            }
          }
          case "Runtime.exceptionThrown" -> out.add("exception: " + p.get("exceptionDetails"));
          case "Log.entryAdded" -> {
            Map<?, ?> entry = (Map<?, ?>) p.get("entry");
            if (List.of("warning", "error").contains(String.valueOf(entry.get("level")))) {
              out.add("log " + entry.get("level") + ": " + entry.get("text"));
            }
          }
          default -> { }
        }
      }
    }
    return out;
  }

  /** The URL of every request the page made (Network.requestWillBeSent). */
  List<String> requests() {
    List<String> out = new ArrayList<>();
    synchronized (events) {
      for (Map<?, ?> e : events) {
        if ("Network.requestWillBeSent".equals(e.get("method"))) {
          out.add(String.valueOf(((Map<?, ?>) ((Map<?, ?>) e.get("params")).get("request")).get("url")));
        }
      }
    }
    return out;
  }

  static String quote(String s) {
    return Json.write(s).strip();
  }

  /**
   * Closes the browser: the main process and every process it started (renderers, the zygote,
   * crashpad — collected before the main one goes, since they may outlive it and write to the
   * profile), each waited for; then the profile directory is removed, so that the test's
   * temporary directory is empty when JUnit deletes it.
   */
  @Override
  public void close() {
    try {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
    } catch (Exception ignored) {
      // closing anyway
    }
    List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
    all.add(0, process.toHandle());
    all.forEach(ProcessHandle::destroy);
    for (ProcessHandle h : all) {
      try {
        h.onExit().get(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        h.destroyForcibly();
      } catch (Exception notYet) {
        h.destroyForcibly();
      }
    }
    deleteProfile();
  }

  /** Removes the profile directory, trying again while a late write of an exiting process lands. */
  private void deleteProfile() {
    for (int attempt = 0; attempt < 20 && Files.exists(profile); attempt++) {
      try (Stream<Path> walk = Files.walk(profile)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      } catch (IOException | UncheckedIOException again) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Collects message fragments; routes replies to their callers and keeps events. */
  private final class Listener implements WebSocket.Listener {
    private final StringBuilder text = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        String msg = text.toString();
        text.setLength(0);
        try {
          Map<?, ?> m = (Map<?, ?>) ViewFacts.plain(new JsonStream(new StringReader(msg), "devtools").value(Integer.MAX_VALUE));
          Object id = m.get("id");
          if (id instanceof Long n) {
            CompletableFuture<Map<?, ?>> f = pending.remove(n.intValue());
            if (f != null) {
              f.complete(m);
            }
          } else {
            events.add(m);
          }
        } catch (IOException e) {
          events.add(Map.of("method", "unparsed", "params", Map.of("text", msg)));
        }
      }
      ws.request(1);
      return null;
    }
  }
}
