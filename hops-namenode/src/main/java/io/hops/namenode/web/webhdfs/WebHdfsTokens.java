package io.hops.namenode.web.webhdfs;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.web.WebHdfsConstants;
import org.apache.hadoop.hdfs.web.resources.DelegationParam;
import org.apache.hadoop.hdfs.web.resources.HttpOpParam;
import org.apache.hadoop.hdfs.web.resources.TokenArgumentParam;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/**
 * WebHDFS's delegation tokens, as HDFS's NamenodeWebHdfsMethods hands them out: issued by the
 * client protocol (so by the database's token store, which every namenode verifies, renews and
 * cancels from), named for this namenode's RPC address, of kind {@code WEBHDFS delegation} (or
 * {@code SWEBHDFS delegation} over HTTPS). A request carrying {@code delegation=} is checked by
 * HDFS's {@code JspHelper} against the same store ({@link WebHdfsRequest#ugi}).
 */
final class WebHdfsTokens {
  private WebHdfsTokens() {}

  /** A new token for the current user, or null with security off (HDFS's {"Token":null}). */
  static Token<DelegationTokenIdentifier> issue(
      ClientProtocol cp, InetSocketAddress rpc, String renewer, String scheme) throws IOException {
    UserGroupInformation ugi = UserGroupInformation.getCurrentUser();
    Token<DelegationTokenIdentifier> token =
        cp.getDelegationToken(new Text(renewer != null ? renewer : ugi.getShortUserName()));
    if (token == null) {
      return null;
    }
    SecurityUtil.setTokenService(token, rpc);
    token.setKind(
        "http".equals(scheme)
            ? WebHdfsConstants.WEBHDFS_TOKEN_KIND
            : WebHdfsConstants.SWEBHDFS_TOKEN_KIND);
    return token;
  }

  /**
   * What a datanode redirect carries instead of {@code user.name}/{@code doas} with security on:
   * the caller's own token, or a new one for a caller who came with SPNEGO.
   */
  static DelegationParam forRedirect(
      ClientProtocol cp, InetSocketAddress rpc, DelegationParam given, String scheme)
      throws IOException {
    if (given.getValue() != null) {
      return given;
    }
    return new DelegationParam(issue(cp, rpc, null, scheme).encodeToUrlString());
  }

  /** The token of {@code token=}, for RENEWDELEGATIONTOKEN and CANCELDELEGATIONTOKEN. */
  static Token<DelegationTokenIdentifier> argument(HttpOpParam<?> op, WebHdfsRequest r)
      throws IOException {
    TokenArgumentParam arg =
        r.get(TokenArgumentParam.NAME, TokenArgumentParam.DEFAULT, TokenArgumentParam::new);
    WebHdfsOp.require(op, arg);
    Token<DelegationTokenIdentifier> token = new Token<>();
    token.decodeFromUrlString(arg.getValue());
    return token;
  }
}
