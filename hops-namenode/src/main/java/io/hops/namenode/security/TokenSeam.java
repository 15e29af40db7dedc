package io.hops.namenode.security;

import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.token.SecretManager;

/**
 * The RPC server's secret manager until delegation tokens live in the database (issue 56, item 3):
 * with it the server offers TOKEN before KERBEROS, as HDFS's namenode does, so a client sees the
 * same SASL negotiation and messages; no token is issued, so every token presented is unknown and
 * refused with HDFS's message for a token its secret manager does not hold. Replace this class by
 * the database-backed {@code DelegationTokenSecretManager}.
 */
public final class TokenSeam extends SecretManager<DelegationTokenIdentifier> {
  @Override
  protected byte[] createPassword(DelegationTokenIdentifier identifier) {
    throw new UnsupportedOperationException("delegation tokens are not issued yet");
  }

  @Override
  public byte[] retrievePassword(DelegationTokenIdentifier identifier) throws InvalidToken {
    // HDFS's AbstractDelegationTokenSecretManager.checkToken, for a token it does not hold.
    throw new InvalidToken(
        "Token for real user: " + identifier.getRealUser() + ", can't be found in cache");
  }

  @Override
  public DelegationTokenIdentifier createIdentifier() {
    return new DelegationTokenIdentifier();
  }
}
