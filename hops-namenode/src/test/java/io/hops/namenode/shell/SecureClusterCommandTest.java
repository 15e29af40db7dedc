package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.security.TestKdc;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bin/hops cluster --secure} (issue 56, item 7) as a user meets it: the command runs as a
 * process of its own and prints the lines to use it; the stock FsShell, another process with the
 * printed configuration directory and {@code krb5.conf}, puts, cats and lists a file with the
 * printed credentials (the delegation token file, then a ticket cache from MIT {@code kinit} with
 * the printed keytab where the machine has kinit, also used by {@code curl --negotiate} against
 * {@code /jmx} and WebHDFS), and is refused without them.
 */
class SecureClusterCommandTest {
  private Process cluster;

  @AfterEach
  void stop() throws InterruptedException {
    if (cluster != null) {
      cluster.destroy();
      if (!cluster.waitFor(30, TimeUnit.SECONDS)) {
        cluster.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private record Shell(int exit, String out, String err) {}

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void theStockShellWorksWithThePrintedLinesAndIsRefusedWithout() throws Exception {
    Path work = Files.createDirectories(Path.of("target/secure-cluster/" + System.nanoTime()));
    Path conf = Files.createDirectories(work.resolve("conf"));
    int rpcPort = Processes.freePort();
    int httpPort = Processes.freePort();
    Files.writeString(
        conf.resolve("core-site.xml"),
        Processes.site("fs.defaultFS", "hdfs://127.0.0.1:" + rpcPort),
        StandardCharsets.UTF_8);
    Files.writeString(
        conf.resolve("hdfs-site.xml"),
        Processes.site(
            "hops.metadata.embedded.dir",
            work.resolve("metadata").toAbsolutePath().toString(),
            "hops.namenode.rpc.port",
            Integer.toString(rpcPort),
            "hops.namenode.http.port",
            Integer.toString(httpPort),
            "dfs.heartbeat.interval",
            "1"),
        StandardCharsets.UTF_8);
    List<String> cmd = Processes.java(false);
    cmd.addAll(
        List.of(
            "cluster",
            "--secure",
            "--conf",
            conf.toString(),
            "--data-dir",
            work.resolve("data").toString(),
            "--datanodes",
            "3"));
    Path out = work.resolve("cluster.out");
    Path err = work.resolve("cluster.err");
    cluster =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.readString(out, StandardCharsets.UTF_8).contains("HADOOP_TOKEN_FILE_LOCATION=")) {
      assertThat(cluster.isAlive()).as("the cluster died:%n%s", Processes.tail(err)).isTrue();
      assertThat(System.nanoTime())
          .as("the cluster did not start:%n%s", Processes.tail(err))
          .isLessThan(deadline);
      Thread.sleep(200);
    }
    String printed = Files.readString(out, StandardCharsets.UTF_8);
    String confDir = value(printed, "export HADOOP_CONF_DIR=(\\S+)");
    String krb5 = value(printed, "export KRB5_CONFIG=(\\S+)");
    assertThat(value(printed, "export HADOOP_OPTS=(\\S+)"))
        .isEqualTo("-Djava.security.krb5.conf=" + krb5);
    String tokenFile = value(printed, "export HADOOP_TOKEN_FILE_LOCATION=(\\S+)");
    Matcher kinit = Pattern.compile("kinit -kt (\\S+) (\\S+)").matcher(printed);
    assertThat(kinit.find()).as(printed).isTrue();
    assertThat(new File(kinit.group(1))).isFile();
    String user = System.getProperty("user.name");
    assertThat(kinit.group(2)).startsWith(user + "@");

    Path local = work.resolve("hello.txt");
    Files.writeString(local, "hello, secure hops\n", StandardCharsets.UTF_8);
    Map<String, String> withToken = Map.of("HADOOP_TOKEN_FILE_LOCATION", tokenFile);
    String home = "/user/" + user;
    Shell put = shell(work, confDir, krb5, withToken, "-put", local.toString(), home + "/hello");
    assertThat(put.exit()).as(put.err()).isZero();
    Shell cat = shell(work, confDir, krb5, withToken, "-cat", home + "/hello");
    assertThat(cat.exit()).as(cat.err()).isZero();
    assertThat(cat.out()).isEqualTo("hello, secure hops\n");
    Shell ls = shell(work, confDir, krb5, withToken, "-ls", home);
    assertThat(ls.exit()).as(ls.err()).isZero();
    assertThat(ls.out()).contains(user).contains(home + "/hello");

    Shell refused = shell(work, confDir, krb5, Map.of(), "-ls", home);
    assertThat(refused.exit()).isNotZero();
    assertThat(refused.err()).contains("Client cannot authenticate via:[TOKEN, KERBEROS]");

    // The kinit path: MIT kinit (Debian's krb5-user) with the printed lines writes a ticket cache
    // that the stock shell's Kerberos login reads (KRB5CCNAME), as a user's terminal does.
    Path kinitBinary = TestKdc.mitKinit();
    if (kinitBinary == null) {
      return;
    }
    Path ccache = work.resolve("krb5cc").toAbsolutePath();
    Map<String, String> withTicket = Map.of("KRB5CCNAME", "FILE:" + ccache);
    Map<String, String> loginEnv = new java.util.HashMap<>(withTicket);
    loginEnv.put("KRB5_CONFIG", krb5);
    ProcessBuilder kinitCommand =
        new ProcessBuilder(kinitBinary.toString(), "-kt", kinit.group(1), kinit.group(2))
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("kinit.out").toFile());
    kinitCommand.environment().putAll(loginEnv);
    Process kinitRun = kinitCommand.start();
    kinitRun.getOutputStream().close();
    assertThat(kinitRun.waitFor(60, TimeUnit.SECONDS)).as("kinit finished").isTrue();
    assertThat(kinitRun.exitValue())
        .as("kinit: %s", Files.readString(work.resolve("kinit.out"), StandardCharsets.UTF_8))
        .isZero();
    assertThat(ccache).isRegularFile();
    Shell putWithTicket =
        shell(work, confDir, krb5, withTicket, "-put", local.toString(), home + "/hello-kinit");
    assertThat(putWithTicket.exit()).as(putWithTicket.err()).isZero();
    Shell catWithTicket = shell(work, confDir, krb5, withTicket, "-cat", home + "/hello-kinit");
    assertThat(catWithTicket.exit()).as(catWithTicket.err()).isZero();
    assertThat(catWithTicket.out()).isEqualTo("hello, secure hops\n");
    Shell lsWithTicket = shell(work, confDir, krb5, withTicket, "-ls", home + "/hello-kinit");
    assertThat(lsWithTicket.exit()).as(lsWithTicket.err()).isZero();
    assertThat(lsWithTicket.out()).contains(user + " ");

    // SPNEGO with the ticket, as curl --negotiate sends it: /jmx and WebHDFS answer the user;
    // without a ticket, 401.
    String web = "http://localhost:" + httpPort;
    String listing = web + "/webhdfs/v1" + home + "?op=LISTSTATUS";
    Curl jmx = curl(work, loginEnv, web + "/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo");
    assertThat(jmx.status()).as(jmx.body()).isEqualTo(200);
    assertThat(jmx.body()).contains("\"beans\"").contains("NameNodeInfo");
    Curl list = curl(work, loginEnv, listing);
    assertThat(list.status()).as(list.body()).isEqualTo(200);
    assertThat(list.body()).contains("\"pathSuffix\":\"hello-kinit\"").contains(user);

    // Without the cache (as after kdestroy) the shell is refused like no credentials at all.
    Files.delete(ccache);
    Shell noTicket = shell(work, confDir, krb5, withTicket, "-ls", home);
    assertThat(noTicket.exit()).isNotZero();
    assertThat(noTicket.err()).contains("Client cannot authenticate via:[TOKEN, KERBEROS]");
    assertThat(curl(work, loginEnv, listing).status()).isEqualTo(401);
  }

  private record Curl(int status, String body) {}

  /** {@code curl --negotiate -u :} with {@code env} (the ticket cache and krb5.conf). */
  private static Curl curl(Path work, Map<String, String> env, String url) throws Exception {
    Path body = Files.createTempFile(work, "curl-", ".body");
    ProcessBuilder pb =
        new ProcessBuilder(
                "curl",
                "-sS",
                "--negotiate",
                "-u",
                ":",
                "-o",
                body.toString(),
                "-w",
                "%{http_code}",
                url)
            .redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("curl finished").isTrue();
    assertThat(out).as("curl's answer for %s", url).matches("[0-9]{3}");
    return new Curl(Integer.parseInt(out), Files.readString(body, StandardCharsets.UTF_8));
  }

  private static String value(String printed, String regex) {
    Matcher m = Pattern.compile(regex).matcher(printed);
    assertThat(m.find()).as("%s in%n%s", regex, printed).isTrue();
    return m.group(1);
  }

  /**
   * The stock FsShell as {@code hdfs dfs} runs it: the configuration directory ahead of the jars,
   * the KDC's krb5.conf, {@code env} added to a copy of this process's environment without Hadoop's
   * credential variables.
   */
  private static Shell shell(
      Path work, String confDir, String krb5, Map<String, String> env, String... args)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    cmd.addAll(
        List.of(
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-Djava.security.krb5.conf=" + krb5,
            "-cp",
            confDir + File.pathSeparator + Processes.runtimeClasspath(),
            "org.apache.hadoop.fs.FsShell"));
    cmd.addAll(List.of(args));
    File out = File.createTempFile("fsshell-", ".out", work.toFile());
    File err = File.createTempFile("fsshell-", ".err", work.toFile());
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out).redirectError(err);
    pb.environment().remove("HADOOP_TOKEN_FILE_LOCATION");
    pb.environment().remove("KRB5CCNAME");
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("FsShell " + String.join(" ", args) + " timed out");
    }
    return new Shell(
        p.exitValue(),
        Files.readString(out.toPath(), StandardCharsets.UTF_8),
        Files.readString(err.toPath(), StandardCharsets.UTF_8));
  }
}
