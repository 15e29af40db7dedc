package io.hops.namenode.security;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.HDFSPolicyProvider;
import org.apache.hadoop.security.authorize.PolicyProvider;
import org.apache.hadoop.security.authorize.Service;

/**
 * The service ACLs of {@code hadoop-policy.xml}: HDFS's protocol list ({@link HDFSPolicyProvider},
 * so {@code security.client.protocol.acl}, {@code security.datanode.protocol.acl}, {@code
 * security.refresh.policy.protocol.acl} and the rest mean what they mean in HDFS), and hops's
 * small-files protocol under the client protocol's ACL: it is a client's call like any other.
 */
public final class HopsPolicyProvider extends PolicyProvider {
  private static final Service[] SERVICES = services();

  private static Service[] services() {
    List<Service> all = new ArrayList<>(List.of(new HDFSPolicyProvider().getServices()));
    all.add(
        new Service(
            CommonConfigurationKeys.SECURITY_CLIENT_PROTOCOL_ACL,
            io.hops.SmallFilesProtocol.class));
    return all.toArray(new Service[0]);
  }

  @Override
  public Service[] getServices() {
    return SERVICES.clone();
  }
}
