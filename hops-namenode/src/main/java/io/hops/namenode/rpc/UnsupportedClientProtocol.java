package io.hops.namenode.rpc;

/**
 * The {@link org.apache.hadoop.hdfs.protocol.ClientProtocol} methods hops still refuses, each with
 * an {@link UnsupportedOperationException} that names it, so nothing is a silent stub. {@link
 * ClientRpc} implements the rest and {@link FeaturesOff} answers the features hops does not have;
 * docs/architecture.md lists what remains here and why.
 */
@SuppressWarnings({"deprecation", "unused"})
public abstract class UnsupportedClientProtocol
    implements org.apache.hadoop.hdfs.protocol.ClientProtocol {

  /** The refusal of an operation hops does not implement, and why. */
  static UnsupportedOperationException unsupported(String method, String reason) {
    return new UnsupportedOperationException(
        "ClientProtocol." + method + " is not supported by hops: " + reason);
  }
}
