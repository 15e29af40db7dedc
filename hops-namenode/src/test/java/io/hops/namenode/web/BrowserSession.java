package io.hops.namenode.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One headless Chromium that opens pages one after another in one tab, driven over the DevTools
 * protocol (its WebSocket, with the JDK's client), as a user browses: what one page's visit left
 * behind (a loaded Kerberos library, cookies) serves the next. {@link WebUiTest.Chromium} runs a
 * new browser for each page instead.
 */
final class BrowserSession implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Process browser;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> answers = new ConcurrentHashMap<>();

  private BrowserSession(Process browser, WebSocket socket) {
    this.browser = browser;
    this.socket = socket;
  }

  /** Starts {@code chromium} on a blank page, {@code env} added to its environment. */
  static BrowserSession start(String chromium, Map<String, String> env) throws Exception {
    List<String> cmd = WebUiTest.Chromium.headless(chromium);
    cmd.add("--remote-debugging-port=0");
    // SPNEGO (HTTP Negotiate) for servers on localhost, from the ticket cache KRB5CCNAME names
    cmd.add("--auth-server-allowlist=localhost");
    cmd.add("about:blank");
    File err = File.createTempFile("chromium", ".err");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.to(err));
    pb.environment().putAll(env);
    Process browser = pb.start();
    try {
      String devtools = devtoolsAddress(browser, err);
      HttpClient http = HttpClient.newHttpClient();
      JsonNode targets =
          JSON.readTree(
              http.send(
                      HttpRequest.newBuilder(URI.create("http://" + devtools + "/json/list"))
                          .build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body());
      String page = null;
      for (JsonNode t : targets) {
        if ("page".equals(t.path("type").asText())
            && "about:blank".equals(t.path("url").asText())) {
          page = t.path("webSocketDebuggerUrl").asText();
        }
      }
      if (page == null) {
        throw new AssertionError("chromium shows no blank page: " + targets);
      }
      Listener listener = new Listener();
      WebSocket socket =
          http.newWebSocketBuilder()
              .buildAsync(URI.create(page), listener)
              .get(30, TimeUnit.SECONDS);
      BrowserSession session = new BrowserSession(browser, socket);
      listener.session = session;
      return session;
    } catch (Exception | AssertionError e) {
      browser.destroyForcibly();
      throw e;
    }
  }

  private static String devtoolsAddress(Process browser, File err) throws Exception {
    Pattern listening = Pattern.compile("DevTools listening on ws://([^/]+)/");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher m = listening.matcher(Files.readString(err.toPath(), StandardCharsets.UTF_8));
      if (m.find()) {
        return m.group(1);
      }
      if (!browser.isAlive()) {
        break;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "chromium did not open its DevTools port: " + Files.readString(err.toPath()));
  }

  /**
   * Goes to {@code url} and returns its DOM once the document has loaded and {@code ready} holds
   * for it (the page's scripts have filled it in), or after 30 s whatever it is then.
   */
  String open(String url, Predicate<String> ready) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("url", url);
    call("Page.navigate", params);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String dom = "";
    while (System.nanoTime() < deadline) {
      String state = evaluate("document.readyState + ' ' + location.href");
      if (state.startsWith("complete ") && !state.endsWith("about:blank")) {
        dom = evaluate("document.documentElement.outerHTML");
        if (ready.test(dom)) {
          return dom;
        }
      }
      Thread.sleep(100);
    }
    return dom;
  }

  private String evaluate(String expression) throws Exception {
    ObjectNode params =
        JSON.createObjectNode().put("expression", expression).put("returnByValue", true);
    return call("Runtime.evaluate", params).path("result").path("value").asText();
  }

  private JsonNode call(String method, ObjectNode params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    answers.put(id, answer);
    ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
    message.set("params", params);
    socket.sendText(JSON.writeValueAsString(message), true).get(30, TimeUnit.SECONDS);
    JsonNode reply = answer.get(30, TimeUnit.SECONDS);
    if (reply.has("error")) {
      throw new AssertionError(method + " failed: " + reply.get("error"));
    }
    return reply.path("result");
  }

  @Override
  public void close() throws Exception {
    socket.abort();
    browser.destroy();
    if (!browser.waitFor(10, TimeUnit.SECONDS)) {
      browser.destroyForcibly();
    }
  }

  /** Collects each message's parts and hands a complete answer to the call waiting for it. */
  private static final class Listener implements WebSocket.Listener {
    private final StringBuilder parts = new StringBuilder();
    private volatile BrowserSession session;

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      parts.append(data);
      if (last) {
        String text = parts.toString();
        parts.setLength(0);
        try {
          JsonNode message = JSON.readTree(text);
          if (message.has("id") && session != null) {
            CompletableFuture<JsonNode> answer = session.answers.remove(message.get("id").asInt());
            if (answer != null) {
              answer.complete(message);
            }
          }
        } catch (Exception e) {
          throw new IllegalStateException("not JSON from chromium: " + text, e);
        }
      }
      ws.request(1);
      return null;
    }
  }
}
