package io.hops.namenode.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.dal.StorageDriver;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The compose files of {@code docker/} (no Docker engine here to run them): the services of the
 * deployment, their images, ports, volumes, start order and health checks; every hops command
 * parses with {@code bin/hops}'s own command line; every configuration file it mounts loads and
 * names a metadata engine hops has, and a database and namenodes that are services of the file.
 */
class DockerComposeTest {
  private static final Path DOCKER = Path.of("..", "docker");

  @ParameterizedTest
  @ValueSource(strings = {"docker-compose.yml", "docker-compose.mariadb.yml"})
  void theDeploymentIsWhole(String file) throws Exception {
    JsonNode compose = load(DOCKER.resolve(file));
    JsonNode services = compose.get("services");
    boolean ndb = file.equals("docker-compose.yml");
    String db = ndb ? "mysqld" : "mariadb";
    Set<String> expected =
        new HashSet<>(Set.of(db, "hops-format", "nn1", "nn2", "dn1", "dn2", "dn3", "client"));
    if (ndb) {
      expected.addAll(Set.of("ndb-mgmd", "ndbd1", "ndbd2"));
    }
    assertThat(names(services)).containsExactlyInAnyOrderElementsOf(expected);

    // Images: the official database images; hops from this repository's Dockerfile.
    for (String s : names(services)) {
      JsonNode svc = services.get(s);
      if (s.startsWith("ndb") || s.equals("mysqld")) {
        assertThat(svc.get("image").asText()).startsWith("mysql/mysql-cluster:");
      } else if (s.equals("mariadb")) {
        assertThat(svc.get("image").asText()).startsWith("mariadb:");
      } else {
        assertThat(svc.get("image").asText()).as(s).isEqualTo("hops:dev");
        Path context = DOCKER.resolve(svc.get("build").get("context").asText());
        assertThat(context.resolve(svc.get("build").get("dockerfile").asText())).exists();
        assertThat(context.resolve("bin/hops")).exists();
      }
    }
    assertThat(strings(services.get("nn1").get("ports"))).containsExactly("8020:8020", "9870:9870");
    assertThat(strings(services.get("nn2").get("ports"))).containsExactly("8021:8020", "9871:9870");

    // Volumes: bind mounts exist here, named volumes are declared.
    for (String s : names(services)) {
      for (String v : strings(services.get(s).get("volumes"))) {
        String source = v.split(":")[0];
        if (source.startsWith("./")) {
          assertThat(DOCKER.resolve(source)).as(s + " mounts " + v).exists();
        } else {
          assertThat(compose.get("volumes").has(source)).as(s + " uses volume " + source).isTrue();
        }
      }
    }

    // Start order: the database before the format job, the format job before the namenodes, the
    // namenodes (healthy) before the datanodes; a condition on health needs a health check.
    Map<String, Map<String, String>> deps = new HashMap<>();
    for (String s : names(services)) {
      Map<String, String> d = new HashMap<>();
      JsonNode on = services.get(s).get("depends_on");
      if (on != null) {
        for (String target : names(on)) {
          assertThat(services.has(target)).as(s + " depends on " + target).isTrue();
          String condition = on.get(target).get("condition").asText();
          d.put(target, condition);
          if (condition.equals("service_healthy")) {
            assertThat(services.get(target).has("healthcheck"))
                .as(target + " has a health check")
                .isTrue();
          }
        }
      }
      deps.put(s, d);
    }
    assertThat(startOrder(deps)).as("no cycle in depends_on").hasSize(deps.size());
    assertThat(services.get(db).has("healthcheck")).isTrue();
    assertThat(deps.get("hops-format")).containsEntry(db, "service_healthy");
    for (String nn : List.of("nn1", "nn2")) {
      assertThat(deps.get(nn)).containsEntry("hops-format", "service_completed_successfully");
      assertThat(services.get(nn).has("healthcheck")).isTrue();
    }
    for (String dn : List.of("dn1", "dn2", "dn3")) {
      assertThat(deps.get(dn))
          .containsEntry("nn1", "service_healthy")
          .containsEntry("nn2", "service_healthy");
      assertThat(services.get(dn).has("healthcheck")).isTrue();
    }
    if (ndb) {
      assertThat(services.get("ndb-mgmd").has("healthcheck")).isTrue();
      assertThat(deps.get("ndbd1")).containsEntry("ndb-mgmd", "service_healthy");
      assertThat(deps.get("ndbd2")).containsEntry("ndb-mgmd", "service_healthy");
      assertThat(deps.get("mysqld")).containsKeys("ndbd1", "ndbd2");
      String cluster = Files.readString(DOCKER.resolve("ndb/mysql-cluster.cnf"));
      for (String host : List.of("ndb-mgmd", "ndbd1", "ndbd2", "mysqld")) {
        assertThat(cluster).contains("HostName=" + host);
        assertThat(services.has(host)).isTrue();
      }
    }

    // Commands: bin/hops accepts them; the configuration they name loads and fits the file.
    Set<String> engines = new HashSet<>();
    ServiceLoader.load(StorageDriver.class).forEach(d -> engines.add(d.engine()));
    for (String s : names(services)) {
      JsonNode svc = services.get(s);
      if (!"hops:dev".equals(svc.path("image").asText())) {
        continue;
      }
      List<String> args = strings(svc.get("command"));
      String command = args.get(0);
      assertThat(HopsMain.commandLine().getSubcommands()).as(s).containsKey(command);
      if (!command.equals("dfs")) { // the stock tools' arguments are the stock tools'
        HopsMain.commandLine().parseArgs(args.toArray(String[]::new)); // throws if refused
      }
      Configuration conf = mountedConf(svc, args.get(args.indexOf("--conf") + 1));
      switch (command) {
        case "format", "namenode" -> {
          assertThat(engines).contains(conf.get("hops.metadata.engine"));
          assertThat(URI.create(conf.get("hops.metadata.jdbc.url").substring(5)).getHost())
              .isEqualTo(db);
          if (command.equals("namenode")) {
            assertThat(conf.get("dfs.namenode.rpc-bind-host"))
                .isEqualTo(svc.get("hostname").asText());
            assertThat(conf.getInt("hops.namenode.rpc.port", -1)).isEqualTo(8020);
            assertThat(conf.getInt("hops.namenode.http.port", -1)).isEqualTo(9870);
          }
        }
        case "datanode", "dfs" -> {
          String ns = conf.get("dfs.nameservices");
          assertThat(conf.get("fs.defaultFS")).isEqualTo("hdfs://" + ns);
          for (String nn : conf.getTrimmedStrings("dfs.ha.namenodes." + ns)) {
            String address = conf.get("dfs.namenode.rpc-address." + ns + "." + nn);
            assertThat(services.has(address.split(":")[0])).as(address).isTrue();
          }
          for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--namenode")) {
              assertThat(services.has(URI.create(args.get(i + 1)).getHost())).isTrue();
            }
          }
        }
        default -> throw new AssertionError(s + ": unexpected command " + command);
      }
    }
  }

  @Test
  void theDeploymentDocSaysTheFilesWereNotRunHere() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "deployment.md"));
    assertThat(doc).contains("docker-compose.yml", "docker-compose.mariadb.yml");
    assertThat(doc).containsIgnoringCase("not run here");
  }

  /** The host directory mounted at {@code containerDir}, loaded as bin/hops loads --conf. */
  private static Configuration mountedConf(JsonNode svc, String containerDir) {
    for (String v : strings(svc.get("volumes"))) {
      String[] parts = v.split(":");
      Path host = DOCKER.resolve(parts[0]);
      if (parts[1].equals(containerDir)) {
        assertThat(host.resolve("hdfs-site.xml")).exists();
        return Confs.load(host.toString());
      }
      if (parts[1].equals(containerDir + "/hdfs-site.xml")) {
        assertThat(host).exists();
        return Confs.load(host.getParent().toString());
      }
    }
    throw new AssertionError("nothing is mounted at " + containerDir);
  }

  private static List<String> startOrder(Map<String, Map<String, String>> deps) {
    List<String> order = new ArrayList<>();
    Set<String> left = new HashSet<>(deps.keySet());
    boolean progress = true;
    while (progress) {
      progress = false;
      for (Iterator<String> it = left.iterator(); it.hasNext(); ) {
        String s = it.next();
        if (order.containsAll(deps.get(s).keySet())) {
          order.add(s);
          it.remove();
          progress = true;
        }
      }
    }
    return order;
  }

  private static List<String> names(JsonNode object) {
    List<String> out = new ArrayList<>();
    object.fieldNames().forEachRemaining(out::add);
    return out;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    if (array != null) {
      array.forEach(n -> out.add(n.asText()));
    }
    return out;
  }

  /** The YAML file as JSON, read by Python's PyYAML: there is no YAML parser on this classpath. */
  private static JsonNode load(Path yaml) throws Exception {
    String python = pythonWithYaml();
    assumeTrue(python != null, "python3 is not installed: the compose files are not checked");
    Process p =
        new ProcessBuilder(
                python,
                "-c",
                "import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
                yaml.toAbsolutePath().toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("parse " + yaml).isZero();
    return new ObjectMapper().readTree(json);
  }

  /** A Python 3 with PyYAML: the system's, .ci/run's venv, or that venv given PyYAML now. */
  private static String pythonWithYaml() throws Exception {
    for (String c : List.of("python3", "../target/py-venv/bin/python3")) {
      if (run(c, "-c", "import yaml")) {
        return c;
      }
    }
    if (!run("python3", "--version")) {
      return null;
    }
    String venv = "../target/py-venv";
    if (!new File(venv + "/bin/pip").exists() && !run("python3", "-m", "venv", venv)) {
      throw new AssertionError("python3 has no yaml module and no venv can be made in " + venv);
    }
    if (!run(venv + "/bin/pip", "install", "-q", "pyyaml")) {
      throw new AssertionError("python3 has no yaml module and pip install pyyaml failed");
    }
    return venv + "/bin/python3";
  }

  private static boolean run(String... command) throws Exception {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }
}
