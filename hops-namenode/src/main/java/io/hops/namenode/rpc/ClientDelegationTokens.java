package io.hops.namenode.rpc;

import io.hops.namenode.security.DelegationTokens;
import java.io.IOException;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.token.Token;

/**
 * The {@code ClientProtocol} calls on delegation tokens: HDFS's, with keys and tokens in the
 * database.
 */
public final class ClientDelegationTokens {
  private final DelegationTokens tokens;

  public ClientDelegationTokens(DelegationTokens tokens) {
    this.tokens = tokens;
  }

  /**
   * A new {@code HDFS_DELEGATION_TOKEN} for the caller, as HDFS's FSNamesystem issues it: null with
   * simple authentication (no secret manager running), refused to a caller that is itself
   * authenticated by a token. The client sets the token's service (the namenode's address, or the
   * logical nameservice).
   */
  Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    if (!allowedDelegationTokenOp()) {
      throw new IOException(
          "Delegation Token can be issued only with kerberos or web authentication");
    }
    return tokens.issue(remoteUser(), renewer);
  }

  long renewDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    if (!allowedDelegationTokenOp()) {
      throw new IOException(
          "Delegation Token can be renewed only with kerberos or web authentication");
    }
    return tokens.renewToken(token, remoteUser().getShortUserName());
  }

  void cancelDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    tokens.cancelToken(token, remoteUser().getUserName());
  }

  private static UserGroupInformation remoteUser() throws IOException {
    UserGroupInformation ugi = Server.getRemoteUser();
    return ugi != null ? ugi : UserGroupInformation.getCurrentUser();
  }

  /** HDFS's FSNamesystem.isAllowedDelegationTokenOp: with Kerberos, not to a token's holder. */
  private static boolean allowedDelegationTokenOp() throws IOException {
    UserGroupInformation ugi = remoteUser();
    AuthenticationMethod method = ugi.getAuthenticationMethod();
    if (method == AuthenticationMethod.PROXY) {
      method = ugi.getRealUser().getAuthenticationMethod();
    }
    return !UserGroupInformation.isSecurityEnabled()
        || method == AuthenticationMethod.KERBEROS
        || method == AuthenticationMethod.KERBEROS_SSL
        || method == AuthenticationMethod.CERTIFICATE;
  }
}
