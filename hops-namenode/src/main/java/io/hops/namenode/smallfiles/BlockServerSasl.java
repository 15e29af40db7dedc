package io.hops.namenode.smallfiles;

import static org.apache.hadoop.hdfs.protocol.datatransfer.sasl.DataTransferSaslUtil.SASL_TRANSFER_MAGIC_NUMBER;

import io.hops.namenode.security.BlockTokens;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CipherOption;
import org.apache.hadoop.hdfs.protocol.datatransfer.IOStreamPair;
import org.apache.hadoop.hdfs.protocol.datatransfer.sasl.DataTransferSaslUtil;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.DataTransferEncryptorMessageProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.DataTransferEncryptorMessageProto.DataTransferEncryptorStatus;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.security.SaslInputStream;
import org.apache.hadoop.security.SaslOutputStream;
import org.apache.hadoop.security.SaslPropertiesResolver;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.SecretManager;

/**
 * The server side of SASL data transfer protection ({@code dfs.data.transfer.protection}) for the
 * database-file block server, as a secure DataNode runs it on an unprivileged port: the client
 * opens with the SASL magic number, then DIGEST-MD5 with its block token as the credential (user
 * name: the token's identifier, password: the token's password, which this namenode computes from
 * the block keys in the database). {@code authentication} leaves the streams as they are; {@code
 * integrity} and {@code privacy} wrap them in SASL's own integrity or encryption. Hadoop's
 * DataNode-side class needs a DataNode; this one needs only the block keys.
 *
 * <p>Not done here (the client never asks for it, as the namenode does not turn it on): AES cipher
 * negotiation ({@code dfs.encrypt.data.transfer.cipher.suites}) and the encryption-key handshake of
 * {@code dfs.encrypt.data.transfer}.
 */
final class BlockServerSasl {
  /** DataTransferSaslUtil's constants, which its SaslParticipant keeps to itself. */
  private static final String MECHANISM = "DIGEST-MD5";

  private static final String PROTOCOL = "hdfs";
  private static final String SERVER_NAME = "0";

  private final SaslPropertiesResolver resolver;
  private final BlockTokens tokens;

  private BlockServerSasl(SaslPropertiesResolver resolver, BlockTokens tokens) {
    this.resolver = resolver;
    this.tokens = tokens;
  }

  /**
   * The handshake when the server must speak it, as a DataNode decides: Kerberos on, a protection
   * configured and the port not privileged; else null (plain data transfer).
   */
  static BlockServerSasl ifRequired(Configuration conf, BlockTokens tokens, int port) {
    if (!UserGroupInformation.isSecurityEnabled() || SecurityUtil.isPrivilegedPort(port)) {
      return null;
    }
    SaslPropertiesResolver resolver = DataTransferSaslUtil.getSaslPropertiesResolver(conf);
    return resolver == null ? null : new BlockServerSasl(resolver, tokens);
  }

  /**
   * Runs the handshake on a new connection and returns the streams to speak data transfer on. A
   * client that does not open with SASL, a token that does not verify or a failed negotiation is
   * answered with an error message (as a DataNode answers) and thrown.
   */
  IOStreamPair handshake(DataInputStream in, DataOutputStream out, InetAddress peer)
      throws IOException {
    int magic = in.readInt();
    if (magic != SASL_TRANSFER_MAGIC_NUMBER) {
      // The DataNode's InvalidMagicNumberException message.
      throw new IOException(
          String.format(
              "Received %x instead of %x from client.", magic, SASL_TRANSFER_MAGIC_NUMBER));
    }
    Map<String, String> props = new TreeMap<>(resolver.getServerProperties(peer));
    try {
      DataTransferEncryptorMessageProto first =
          DataTransferEncryptorMessageProto.parseFrom(PBHelperClient.vintPrefixed(in));
      if (first.getStatus() != DataTransferEncryptorStatus.SUCCESS) {
        throw new IOException(first.getMessage());
      }
      if (first.hasHandshakeSecret()) {
        // A client that got the QOP wrapped in its token asks for that one.
        props.put(
            Sasl.QOP, first.getHandshakeSecret().getSecret().toString(StandardCharsets.UTF_8));
      }
      SaslServer sasl =
          Sasl.createSaslServer(MECHANISM, PROTOCOL, SERVER_NAME, props, this::callbacks);
      DataTransferSaslUtil.sendSaslMessage(
          out, sasl.evaluateResponse(first.getPayload().toByteArray()));
      List<CipherOption> offered = new ArrayList<>();
      byte[] last =
          sasl.evaluateResponse(
              DataTransferSaslUtil.readSaslMessageAndNegotiationCipherOptions(in, offered));
      String qop = checkComplete(sasl, props);
      DataTransferSaslUtil.sendSaslMessageAndNegotiatedCipherOption(out, last, null);
      return "auth".equals(qop)
          ? new IOStreamPair(in, out)
          : new IOStreamPair(
              new DataInputStream(new SaslInputStream(in, sasl)),
              new DataOutputStream(new SaslOutputStream(out, sasl)));
    } catch (IOException e) {
      boolean badToken =
          e instanceof SaslException && e.getCause() instanceof SecretManager.InvalidToken;
      // The stock client turns an access-token error into InvalidBlockTokenException and fetches
      // new tokens, as with a DataNode.
      DataTransferSaslUtil.sendSaslMessage(
          out,
          DataTransferEncryptorStatus.ERROR,
          null,
          badToken ? e.getCause().getMessage() : e.getMessage(),
          null,
          badToken);
      throw e;
    }
  }

  /** DataTransferSaslUtil.checkSaslComplete: the negotiated QOP is one the server asked for. */
  private static String checkComplete(SaslServer sasl, Map<String, String> props)
      throws IOException {
    if (!sasl.isComplete()) {
      throw new IOException("Failed to complete SASL handshake");
    }
    Set<String> requested = Set.copyOf(Arrays.asList(props.get(Sasl.QOP).split(",")));
    String negotiated = (String) sasl.getNegotiatedProperty(Sasl.QOP);
    if (negotiated == null) {
      negotiated = "auth";
    }
    if (!requested.contains(negotiated)) {
      throw new IOException(
          String.format(
              "SASL handshake completed, but channel does not have acceptable quality of"
                  + " protection, requested = %s, negotiated(effective) = %s",
              requested, negotiated));
    }
    return negotiated;
  }

  /** The DIGEST-MD5 server's questions: the password of the token the user name serializes. */
  private void callbacks(Callback[] callbacks) throws IOException, UnsupportedCallbackException {
    NameCallback name = null;
    PasswordCallback password = null;
    AuthorizeCallback authorize = null;
    for (Callback c : callbacks) {
      if (c instanceof NameCallback n) {
        name = n;
      } else if (c instanceof PasswordCallback p) {
        password = p;
      } else if (c instanceof AuthorizeCallback a) {
        authorize = a;
      } else if (!(c instanceof RealmCallback)) {
        throw new UnsupportedCallbackException(c, "unexpected SASL callback");
      }
    }
    if (password != null && name != null) {
      password.setPassword(passwordOf(name.getDefaultName()));
    }
    if (authorize != null) {
      authorize.setAuthorized(true);
      authorize.setAuthorizedID(authorize.getAuthorizationID());
    }
  }

  /** The client's user name is its token identifier in base64; the password, the token's. */
  private char[] passwordOf(String userName) throws IOException {
    BlockTokenIdentifier id = new BlockTokenIdentifier();
    id.readFields(
        new DataInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(userName))));
    byte[] secret = tokens.retrievePassword(id);
    return Base64.getEncoder().encodeToString(secret).toCharArray();
  }
}
