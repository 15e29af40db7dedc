package io.hops.namenode.security;

import io.hops.namenode.ApacheHdfs;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.ProxyUsers;
import org.assertj.core.api.Assertions;

/**
 * A KDC from {@code hadoop-minikdc} for the kerberized test classes: one keytab with every
 * principal a class asks for, the settings of services that log in from it, and logins. Closing it
 * stops the KDC and leaves the JVM's later tests simple authentication and no proxy users.
 */
public final class TestKdc implements AutoCloseable {
  private final MiniKdc kdc;
  private final File dir;
  private final File keytab;

  private TestKdc(MiniKdc kdc, File dir, File keytab) {
    this.kdc = kdc;
    this.dir = dir;
    this.keytab = keytab;
  }

  /**
   * Starts a KDC in a new temporary directory named after {@code name}, with {@code principals}
   * (users such as {@code alice}, services such as {@code hdfs/localhost}) in its keytab.
   */
  public static TestKdc start(String name, String... principals) throws Exception {
    File dir = Files.createTempDirectory(name).toFile();
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), dir);
    kdc.start();
    File keytab = new File(dir, "test.keytab");
    kdc.createPrincipal(keytab, principals);
    return new TestKdc(kdc, dir, keytab);
  }

  /** The KDC's directory, where a test may keep files of its own. */
  public File dir() {
    return dir;
  }

  public String realm() {
    return kdc.getRealm();
  }

  /**
   * The KDC's {@code krb5.conf}, for processes the test starts ({@code java.security.krb5.conf}).
   */
  public File krb5conf() {
    return kdc.getKrb5conf();
  }

  /** The keytab every principal given to {@link #start} is in. */
  public File keytab() {
    return keytab;
  }

  /**
   * Adds {@code principals} (not given to {@link #start}) to the KDC, in a keytab of their own,
   * {@code name} in the KDC's directory, as an operator gives each service host its own keytab.
   */
  public File keytab(String name, String... principals) throws Exception {
    File own = new File(dir, name);
    kdc.createPrincipal(own, principals);
    return own;
  }

  /** Logs {@code principal} in from the keytab, without touching the JVM's login user. */
  public UserGroupInformation login(String principal) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        principal + "@" + realm(), keytab.getPath());
  }

  /**
   * Kerberos on, the namenode and the datanode as {@code hdfs/<host>} and the web server (HDFS's
   * {@code dfs.web.authentication.kerberos.*}) as {@code HTTP/<host>}, all from the keytab; {@code
   * host} is a name or {@code _HOST}.
   */
  public Configuration services(String host) {
    Configuration c = new Configuration(false);
    c.set("hadoop.security.authentication", "kerberos");
    String hdfsPrincipal = "hdfs/" + host + "@" + realm();
    c.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, hdfsPrincipal);
    c.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, keytab.getPath());
    c.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, hdfsPrincipal);
    c.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, keytab.getPath());
    c.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, httpPrincipal(host));
    c.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY, keytab.getPath());
    return c;
  }

  /**
   * Sets in {@code c} Hadoop's own keys for the web server's principal and keytab ({@code
   * hadoop.http.authentication.kerberos.*}, which Apache HDFS's AuthFilter reads), as {@code
   * HTTP/<host>}; returns {@code c}.
   */
  public Configuration withHadoopHttpKeys(Configuration c, String host) {
    c.set("hadoop.http.authentication.kerberos.principal", httpPrincipal(host));
    c.set("hadoop.http.authentication.kerberos.keytab", keytab.getPath());
    return c;
  }

  /**
   * The settings the RPC tests' namenodes (hops's and HDFS's) and clients share: {@link #services}
   * at {@code _HOST}, Hadoop's HTTP keys too (which hops's web server reads first), and {@code
   * protection} ({@code hadoop.rpc.protection}) on the RPC connections.
   */
  public Configuration rpc(String protection) {
    Configuration c = withHadoopHttpKeys(services("_HOST"), "_HOST");
    c.set("hadoop.rpc.protection", protection);
    return c;
  }

  /**
   * A kerberized MiniDFSCluster (no datanodes) with the settings {@code conf} of the hops namenodes
   * it is compared with, and block access tokens on, without which a kerberized HDFS does not
   * start.
   */
  public static MiniDFSCluster hdfs(String name, Configuration conf) throws IOException {
    Configuration c = new Configuration(conf);
    c.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    return ApacheHdfs.start(name, c);
  }

  /**
   * A refusal's message with the hosts and ports in it normalised, to compare hops's refusal with
   * HDFS's.
   */
  public static String normalise(String message) {
    return message
        .replaceAll("[\\w.-]*/?127\\.0\\.0\\.1", "HOST")
        .replaceAll("localhost", "HOST")
        .replaceAll(":\\d+", ":PORT")
        .replaceAll(LocalHost.NAME, "HOST");
  }

  private static final class LocalHost {
    static final String NAME = localHostName();

    private static String localHostName() {
      try {
        return java.util.regex.Pattern.quote(InetAddress.getLocalHost().getHostName());
      } catch (IOException e) {
        return "\\Qunknown-host\\E";
      }
    }
  }

  /** A client's configuration: Hadoop's defaults with {@code settings} on top. */
  public static Configuration client(Configuration settings) {
    Configuration c = new Configuration();
    settings.forEach(e -> c.set(e.getKey(), e.getValue()));
    return c;
  }

  /**
   * A ticket of {@code principal} in a cache of its own, got by MIT {@code kinit} from {@code
   * keytab} as a user's terminal gets one: the environment a process needs to use it ({@code
   * KRB5CCNAME}, {@code KRB5_CONFIG}), or null where the machine has no kinit (see {@link
   * #mitKinit}).
   */
  public Map<String, String> ticketCache(String principal, File keytab) throws Exception {
    Path kinit = mitKinit();
    if (kinit == null) {
      return null;
    }
    Path cache = new File(dir, "krb5cc_" + principal.replace('/', '_')).toPath();
    Map<String, String> env =
        Map.of("KRB5CCNAME", "FILE:" + cache, "KRB5_CONFIG", krb5conf().getPath());
    File log = new File(dir, "kinit-" + principal.replace('/', '_') + ".out");
    ProcessBuilder pb =
        new ProcessBuilder(kinit.toString(), "-kt", keytab.getPath(), principal + "@" + realm())
            .redirectErrorStream(true)
            .redirectOutput(log);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    Assertions.assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kinit finished").isTrue();
    Assertions.assertThat(p.exitValue())
        .as("kinit: %s", Files.readString(log.toPath(), StandardCharsets.UTF_8))
        .isZero();
    Assertions.assertThat(cache).isRegularFile();
    return env;
  }

  /**
   * MIT kinit, or null where the machine has none; CI installs it (Debian's {@code krb5-user}) and
   * sets {@code HOPS_TEST_REQUIRE_KINIT}, so there a test cannot skip what needs it.
   */
  public static Path mitKinit() {
    for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
      Path p = Path.of(d, "kinit");
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    Assertions.assertThat(System.getenv("HOPS_TEST_REQUIRE_KINIT"))
        .as("kinit is not installed (Debian: krb5-user) but HOPS_TEST_REQUIRE_KINIT is set")
        .isNull();
    return null;
  }

  private String httpPrincipal(String host) {
    return "HTTP/" + host + "@" + realm();
  }

  @Override
  public void close() {
    kdc.stop();
    UserGroupInformation.reset();
    UserGroupInformation.setConfiguration(new Configuration());
    ProxyUsers.refreshSuperUserGroupsConfiguration(new Configuration(false));
  }
}
