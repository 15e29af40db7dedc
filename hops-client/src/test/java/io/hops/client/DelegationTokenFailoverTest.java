package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A delegation token of the logical nameservice ({@code ha-hdfs:hops}) serves every namenode {@link
 * HopsFailoverProxyProvider} calls, including one it learned from the membership rather than from
 * the configuration. The namenodes issue tokens without Kerberos ({@code
 * dfs.namenode.delegation.token.always-use}); a client whose user holds a token for a namenode
 * authenticates with it (its calls run as the token's owner), else as itself.
 */
class DelegationTokenFailoverTest {
  private static final String NS = "hops";

  private HopsTestCluster cluster;
  private HopsNameNode second;

  @BeforeEach
  void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_ALWAYS_USE_KEY, true);
    cluster = new HopsTestCluster(conf);
    second = cluster.startAnotherNamenode();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (MembershipClient.fetch(cluster.namenode().address(), cluster.clientConf()).size() != 2) {
      assertThat(System.nanoTime()).as("both namenodes listed").isLessThan(deadline);
      Thread.sleep(50);
    }
    cluster
        .client()
        .setPermission(
            new Path("/"), new org.apache.hadoop.fs.permission.FsPermission((short) 0777));
  }

  @AfterEach
  void stop() {
    second.close();
    cluster.close();
  }

  /** The nameservice with the first namenode as its only seed, calls spread round-robin. */
  private Configuration seededWithFirst() {
    Configuration conf = cluster.clientConf();
    conf.set("dfs.nameservices", NS);
    var a = cluster.namenode().address();
    conf.set("dfs.namenode.rpc-address." + NS + ".nn0", a.getHostString() + ":" + a.getPort());
    conf.set("dfs.ha.namenodes." + NS, "nn0");
    conf.set("dfs.client.failover.proxy.provider." + NS, HopsFailoverProxyProvider.class.getName());
    conf.set(HopsClientConfig.NAMENODE_SELECTION, "round-robin");
    conf.setLong(HopsClientConfig.MEMBERSHIP_REFRESH_MS, 200);
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    return conf;
  }

  private static long creates(HopsNameNode nn) {
    return nn.namesystem().runner().metrics().get("create").count();
  }

  @Test
  void aLogicalTokenServesANamenodeLearnedFromTheMembership() throws Exception {
    Configuration conf = seededWithFirst();
    UserGroupInformation alice = UserGroupInformation.createRemoteUser("alice");
    @SuppressWarnings("unchecked")
    Token<DelegationTokenIdentifier> token =
        alice.doAs(
            (PrivilegedExceptionAction<Token<DelegationTokenIdentifier>>)
                () -> {
                  try (FileSystem fs = FileSystem.newInstance(URI.create("hdfs://" + NS), conf)) {
                    return (Token<DelegationTokenIdentifier>) fs.getDelegationToken("alice");
                  }
                });
    assertThat(token.getService().toString()).isEqualTo("ha-hdfs:" + NS);

    // bob holds alice's token: every call that uses it runs as alice.
    UserGroupInformation bob = UserGroupInformation.createRemoteUser("bob");
    bob.addToken(token);
    long before = creates(second);
    List<String> owners =
        bob.doAs(
            (PrivilegedExceptionAction<List<String>>)
                () -> {
                  try (FileSystem fs = FileSystem.newInstance(URI.create("hdfs://" + NS), conf)) {
                    fs.exists(new Path("/")); // learns the membership
                    Thread.sleep(600);
                    List<String> seen = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                      Path p = new Path("/f" + i);
                      fs.create(p).close();
                      FileStatus st = fs.getFileStatus(p);
                      seen.add(st.getOwner());
                    }
                    return seen;
                  }
                });
    assertThat(creates(second) - before).as("creates the learned namenode served").isPositive();
    assertThat(owners).containsOnly("alice");
  }
}
