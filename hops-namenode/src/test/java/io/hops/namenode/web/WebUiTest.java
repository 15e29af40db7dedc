package io.hops.namenode.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * The web UI in a real browser (headless Chromium): each page of a running cluster (a stock
 * client's files, a real DataNode) loads with its content, logs nothing to the browser console, and
 * leaves a screenshot in {@code target/web-ui/}; the browser's download link returns the file.
 */
class WebUiTest {
  private static final Path SHOTS = Path.of("target", "web-ui");

  @Test
  void everyPageShowsTheClusterInABrowserWithoutConsoleErrors() throws Exception {
    String chromium = Chromium.find();
    assumeTrue(
        chromium != null, "chromium is not installed (.ci/run installs it): no browser test");
    byte[] content = "hello from the hops web UI\n".getBytes(StandardCharsets.UTF_8);
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      HopsNameNode nn = cluster.namenode();
      List<DataNode> dns = cluster.startDatanodes(1);
      String dn = dns.get(0).getDatanodeId().getXferAddr();
      try (DistributedFileSystem fs = cluster.client()) {
        fs.mkdirs(new org.apache.hadoop.fs.Path("/ui/empty"));
        try (FSDataOutputStream out =
            fs.create(new org.apache.hadoop.fs.Path("/ui/dir/a file.txt"), (short) 1)) {
          out.write(content);
        }
      }
      String web = nn.httpUri();
      String overview = Chromium.load(chromium, web + "/", "overview");
      assertThat(overview)
          .contains("hops namenode", "Metadata store", "embedded, healthy", dn, "1 live, 0 dead");
      assertThat(overview).containsPattern("<td>create</td><td>1</td>"); // since it started
      assertThat(overview).contains("Operations in the last minute", "operations per second");
      assertThat(overview).containsPattern("<td>create</td><td>0\\.02</td>"); // 1 in 60 s

      String datanodes = Chromium.load(chromium, web + "/datanodes", "datanodes");
      assertThat(datanodes)
          .contains(
              "1 live, 0 stale, 0 dead", dn, "namenode " + nn.election().id() + " (this one)");

      String dir = Chromium.load(chromium, web + "/browse?path=%2Fui%2Fdir", "browse-directory");
      assertThat(dir).contains("1 entries", "a file.txt", "-rw-r--r--");

      String root = Chromium.load(chromium, web + "/browse", "browse-root");
      assertThat(root).contains("ui/");

      String file =
          Chromium.load(chromium, web + "/browse?path=%2Fui%2Fdir%2Fa%20file.txt", "browse-file");
      assertThat(file).contains("Blocks", dn, "Download", content.length + " (");
      Matcher href = Pattern.compile("id=\"download\" href=\"([^\"]+)\"").matcher(file);
      assertThat(href.find()).as(file).isTrue();
      assertThat(get(href.group(1).replace("&amp;", "&"))).isEqualTo(content);

      String missing = Chromium.load(chromium, web + "/browse?path=%2Fnope", "browse-missing");
      assertThat(missing).contains("No such file or directory");

      assertThat(Chromium.load(chromium, web + "/conf", "configuration"))
          .contains("hops.namenode.rpc.port");
      assertThat(Chromium.load(chromium, web + "/logs.html", "logs")).contains("/logLevel");
      assertThat(Chromium.load(chromium, web + "/jmx", "jmx")).contains("FSNamesystemState");
    }
  }

  @Test
  void theConsoleCheckSeesAScriptError() throws Exception {
    String chromium = Chromium.find();
    assumeTrue(
        chromium != null, "chromium is not installed (.ci/run installs it): no browser test");
    Path page = Files.createDirectories(SHOTS).resolve("broken.html");
    Files.writeString(page, "<html><body><script>notDefined()</script></body></html>");
    AssertionError e = null;
    try {
      Chromium.load(chromium, page.toAbsolutePath().toUri().toString(), "broken");
    } catch (AssertionError caught) {
      e = caught;
    }
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("notDefined");
  }

  private static byte[] get(String uri) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(uri).toURL().openConnection();
    c.setInstanceFollowRedirects(true);
    try (InputStream in = c.getInputStream()) {
      return in.readAllBytes();
    } finally {
      c.disconnect();
    }
  }

  /** Headless Chromium: the page's DOM after its scripts ran, its console, a screenshot. */
  static final class Chromium {
    static String find() {
      for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
        if (new File(c).canExecute()) {
          return c;
        }
      }
      return null;
    }

    /** The DOM of {@code url}; fails if the page wrote anything to the browser console. */
    static String load(String chromium, String url, String name) throws Exception {
      Files.createDirectories(SHOTS);
      Run dom = run(chromium, "--dump-dom", url);
      List<String> console = new ArrayList<>();
      for (String line : dom.stderr.split("\n")) {
        if (line.contains(":CONSOLE") || line.contains("Uncaught")) {
          console.add(line);
        }
      }
      if (!console.isEmpty()) {
        throw new AssertionError(url + " wrote to the browser console: " + console);
      }
      Run shot =
          run(
              chromium,
              "--screenshot=" + SHOTS.resolve(name + ".png").toAbsolutePath(),
              "--window-size=1280,1000",
              url);
      assertThat(SHOTS.resolve(name + ".png")).as(shot.stderr).exists();
      return dom.stdout;
    }

    private record Run(String stdout, String stderr) {}

    /** {@code chromium} headless, as root in a container can run it, with a fresh profile. */
    static List<String> headless(String chromium) throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(chromium);
      cmd.addAll(
          List.of(
              "--headless=new",
              "--no-sandbox",
              "--disable-gpu",
              "--disable-dev-shm-usage",
              "--no-first-run",
              "--user-data-dir=" + Files.createTempDirectory("chromium").toAbsolutePath()));
      return cmd;
    }

    private static Run run(String chromium, String... args) throws Exception {
      List<String> cmd = headless(chromium);
      cmd.addAll(List.of("--enable-logging=stderr", "--v=0"));
      cmd.addAll(List.of(args));
      File err = File.createTempFile("chromium", ".err");
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.to(err)).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("chromium did not finish: " + String.join(" ", cmd));
      }
      String stderr = Files.readString(err.toPath());
      err.delete();
      return new Run(out, stderr);
    }
  }
}
