package io.hops.namenode.rpc;

import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.AddErasureCodingPolicyResponse;
import org.apache.hadoop.hdfs.protocol.ECTopologyVerifierResult;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo;
import org.apache.hadoop.hdfs.protocol.NoECPolicySetException;
import org.apache.hadoop.hdfs.protocol.SystemErasureCodingPolicies;
import org.apache.hadoop.hdfs.server.common.ECTopologyVerifier;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;
import org.apache.hadoop.io.erasurecode.CodecRegistry;

/**
 * Erasure coding as HDFS answers with every built-in policy disabled ({@code
 * dfs.namenode.ec.system.default.policy} empty): every file replicated, no policy can be enabled or
 * added ({@link FeaturesOff}).
 */
final class ErasureCodingOff extends AbsentFeature {

  /** The number of live datanodes, asked only once the caller has passed the checks. */
  interface LiveDatanodes {
    int count() throws IOException;
  }

  private final Configuration conf;

  ErasureCodingOff(TransactionRunner runner, PermissionCheckers checkers, Configuration conf) {
    super(runner, checkers);
    this.conf = conf;
  }

  ErasureCodingPolicyInfo[] getErasureCodingPolicies() {
    List<ErasureCodingPolicyInfo> out = new ArrayList<>();
    for (ErasureCodingPolicy p : SystemErasureCodingPolicies.getPolicies()) {
      out.add(new ErasureCodingPolicyInfo(p));
    }
    // In name order, as HDFS's policy manager keeps them.
    out.sort(Comparator.comparing(i -> i.getPolicy().getName()));
    return out.toArray(new ErasureCodingPolicyInfo[0]);
  }

  Map<String, String> getErasureCodingCodecs() {
    return CodecRegistry.getInstance().getCodec2CoderCompactMap();
  }

  ErasureCodingPolicy getErasureCodingPolicy(String src) throws IOException {
    if (src.equals("/.reserved")) {
      return null;
    }
    return checkPath(
        "getErasureCodingPolicy",
        src,
        FsAction.READ,
        p -> {
          if (!p.exists()) {
            throw new FileNotFoundException("Path not found: " + src);
          }
          return null;
        });
  }

  /**
   * {@value DFSConfigKeys#DFS_NAMENODE_EC_SYSTEM_DEFAULT_POLICY} when a site file or the caller
   * sets it, else empty (hops has no erasure coding): the {@code RS-6-3-1024k} of Hadoop's {@code
   * hdfs-default.xml}, which a configuration that loads the defaults holds, counts as not set.
   */
  private String systemDefaultPolicy() {
    String key = DFSConfigKeys.DFS_NAMENODE_EC_SYSTEM_DEFAULT_POLICY;
    return NamenodeConfig.isDefault(conf, key) ? "" : conf.getTrimmed(key, "");
  }

  void setErasureCodingPolicy(String src, String ecPolicyName) throws IOException {
    String name = ecPolicyName != null ? ecPolicyName : systemDefaultPolicy();
    boolean replication =
        name.equalsIgnoreCase(SystemErasureCodingPolicies.getReplicationPolicy().getName());
    if (!replication) {
      throw new HadoopIllegalArgumentException(
          "Policy '"
              + name
              + "' does not match any enabled erasure coding policies: []. An erasure coding"
              + " policy can be enabled by enableErasureCodingPolicy API.");
    }
    // Replication is what every hops file has: setting it changes nothing.
    checkPath(
        "setErasureCodingPolicy",
        src,
        FsAction.WRITE,
        p -> {
          existingDirectory(p, src, "Attempt to set an erasure coding policy for a file ");
          return null;
        });
  }

  void unsetErasureCodingPolicy(String src) throws IOException {
    checkPath(
        "unsetErasureCodingPolicy",
        src,
        FsAction.WRITE,
        p -> {
          existingDirectory(p, src, "Cannot unset an erasure coding policy on a file ");
          throw new NoECPolicySetException("No erasure coding policy explicitly set on " + src);
        });
  }

  /**
   * HDFS's checks of a policy's path: it exists, and is a directory ({@code onFile} + path if not).
   */
  private static void existingDirectory(ResolvedPath p, String src, String onFile)
      throws IOException {
    if (!p.exists()) {
      throw new FileNotFoundException("Path not found: " + src);
    }
    if (!p.target().isDir()) {
      throw new IOException(onFile + src);
    }
  }

  private static ErasureCodingPolicy builtIn(String name) {
    ErasureCodingPolicy p = SystemErasureCodingPolicies.getByName(name);
    if (p == null) {
      throw new HadoopIllegalArgumentException("The policy name " + name + " does not exist");
    }
    return p;
  }

  /** HDFS's answer where user-defined policies are off (dfs.namenode.ec.userpolicies.allowed). */
  AddErasureCodingPolicyResponse[] addErasureCodingPolicies(ErasureCodingPolicy[] policies)
      throws IOException {
    superuser("addErasureCodingPolicies");
    List<AddErasureCodingPolicyResponse> out = new ArrayList<>();
    for (ErasureCodingPolicy p : policies) {
      out.add(
          new AddErasureCodingPolicyResponse(
              p,
              new HadoopIllegalArgumentException(
                  "Addition of user defined erasure coding policy is disabled.")));
    }
    return out.toArray(new AddErasureCodingPolicyResponse[0]);
  }

  void removeErasureCodingPolicy(String ecPolicyName) throws IOException {
    superuser("removeErasureCodingPolicy");
    builtIn(ecPolicyName);
    throw new HadoopIllegalArgumentException(
        "System erasure coding policy " + ecPolicyName + " cannot be removed");
  }

  /** An unknown name fails as in HDFS; a built-in one cannot be enabled: hops only replicates. */
  void enableErasureCodingPolicy(String ecPolicyName) throws IOException {
    superuser("enableErasureCodingPolicy");
    builtIn(ecPolicyName);
    throw new UnsupportedActionException(
        "enableErasureCodingPolicy not supported: hops stores every file replicated, so no"
            + " erasure coding policy can be enabled");
  }

  /** Every policy is disabled already: HDFS then does nothing. */
  void disableErasureCodingPolicy(String ecPolicyName) throws IOException {
    superuser("disableErasureCodingPolicy");
    builtIn(ecPolicyName);
  }

  /** The verdict for no enabled policy, whatever the datanodes. */
  ECTopologyVerifierResult getECTopologyResultForPolicies(String[] policyNames, LiveDatanodes live)
      throws IOException {
    superuser("getECTopologyResultForPolicies");
    List<ErasureCodingPolicy> policies = new ArrayList<>();
    if (policyNames != null) {
      for (String name : policyNames) {
        ErasureCodingPolicy p = SystemErasureCodingPolicies.getByName(name);
        if (p == null) {
          throw new HadoopIllegalArgumentException(
              "The given erasure coding policy " + name + " does not exist.");
        }
        policies.add(p);
      }
    }
    int count = live.count();
    return ECTopologyVerifier.getECTopologyVerifierResult(count == 0 ? 0 : 1, count, policies);
  }
}
