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
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.datatransfer.IOStreamPair;
import org.apache.hadoop.hdfs.protocol.datatransfer.InvalidEncryptionKeyException;
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
 * The server side of the data transfer handshakes a DataNode runs, for the database-file block
 * server (HDFS's SaslDataTransferServer; Hadoop's class needs a DataNode, this one only the block
 * keys). The client opens with the SASL magic number, then DIGEST-MD5 with one of two credentials:
 *
 * <ul>
 *   <li>{@code dfs.encrypt.data.transfer} (with or without Kerberos): a data encryption key from
 *       {@code getDataEncryptionKey}; user name "keyId blockPoolId nonce", password the HMAC of the
 *       nonce under that block key, which this namenode recomputes from the database's block keys.
 *       The QOP is {@code auth-conf} with {@code dfs.encrypt.data.transfer.algorithm}'s cipher.
 *   <li>SASL data transfer protection ({@code dfs.data.transfer.protection}, Kerberos on, port not
 *       privileged): the block token; user name its identifier, password its password. {@code
 *       authentication} leaves the streams as they are; {@code integrity} and {@code privacy} wrap
 *       them in SASL's integrity or encryption.
 * </ul>
 *
 * Under {@code auth-conf}, a client that offers AES ({@code
 * dfs.encrypt.data.transfer.cipher.suites=AES/CTR/NoPadding} on both sides) gets fresh AES keys,
 * sent wrapped by SASL, and the streams are AES/CTR instead of SASL's cipher, as with a DataNode.
 */
final class BlockServerSasl {
  /** DataTransferSaslUtil's constants, which its SaslParticipant keeps to itself. */
  private static final String MECHANISM = "DIGEST-MD5";

  private static final String PROTOCOL = "hdfs";
  private static final String SERVER_NAME = "0";
  private static final String PRIVACY = "auth-conf";

  /** The SASL properties for a peer: the resolver's, or fixed for encrypted transfer. */
  private interface Properties {
    Map<String, String> of(InetAddress peer);
  }

  /** The password for a client's SASL user name. */
  private interface Password {
    char[] of(String userName) throws IOException;
  }

  private final Configuration conf;
  private final Properties properties;
  private final Password password;

  private BlockServerSasl(Configuration conf, Properties properties, Password password) {
    this.conf = conf;
    this.properties = properties;
    this.password = password;
  }

  /**
   * The handshake when the server must speak it, as a DataNode decides: the encrypted one with
   * {@code dfs.encrypt.data.transfer}; else the general one with Kerberos on, a protection
   * configured and the port not privileged; else null (plain data transfer).
   */
  static BlockServerSasl ifRequired(Configuration conf, BlockTokens tokens, int port) {
    if (conf.getBoolean(
        DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY,
        DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_DEFAULT)) {
      Map<String, String> props =
          DataTransferSaslUtil.createSaslPropertiesForEncryption(
              conf.get(DFSConfigKeys.DFS_DATA_ENCRYPTION_ALGORITHM_KEY));
      return new BlockServerSasl(conf, peer -> props, name -> encryptionKeyOf(tokens, name));
    }
    if (!UserGroupInformation.isSecurityEnabled() || SecurityUtil.isPrivilegedPort(port)) {
      return null;
    }
    SaslPropertiesResolver resolver = DataTransferSaslUtil.getSaslPropertiesResolver(conf);
    return resolver == null
        ? null
        : new BlockServerSasl(
            conf, resolver::getServerProperties, name -> tokenPasswordOf(tokens, name));
  }

  /**
   * Runs the handshake on a new connection and returns the streams to speak data transfer on. A
   * client that does not open with SASL, a key or token that does not verify or a failed
   * negotiation is answered with an error message (as a DataNode answers) and thrown.
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
    Map<String, String> props = new TreeMap<>(properties.of(peer));
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
      CipherOption cipher =
          PRIVACY.equals(qop) ? DataTransferSaslUtil.negotiateCipherOption(conf, offered) : null;
      DataTransferSaslUtil.sendSaslMessageAndNegotiatedCipherOption(
          out, last, wrapped(cipher, sasl));
      if (cipher != null) {
        return DataTransferSaslUtil.createStreamPair(conf, cipher, out, in, true);
      }
      return "auth".equals(qop)
          ? new IOStreamPair(in, out)
          : new IOStreamPair(
              new DataInputStream(new SaslInputStream(in, sasl)),
              new DataOutputStream(new SaslOutputStream(out, sasl)));
    } catch (IOException e) {
      refuse(out, e);
      throw e;
    }
  }

  /**
   * The DataNode's answers to a failed handshake, each of which the stock client acts on: an
   * unknown encryption key makes it fetch a new key, a refused block token new tokens.
   */
  private static void refuse(DataOutputStream out, IOException e) throws IOException {
    Throwable cause = e instanceof SaslException ? e.getCause() : null;
    if (cause instanceof InvalidEncryptionKeyException) {
      DataTransferSaslUtil.sendSaslMessage(
          out, DataTransferEncryptorStatus.ERROR_UNKNOWN_KEY, null, cause.getMessage());
    } else if (cause instanceof SecretManager.InvalidToken) {
      DataTransferSaslUtil.sendSaslMessage(
          out, DataTransferEncryptorStatus.ERROR, null, cause.getMessage(), null, true);
    } else {
      DataTransferSaslUtil.sendGenericSaslErrorMessage(out, e.getMessage());
    }
  }

  /**
   * The negotiated AES keys, wrapped by the SASL session for the trip to the client
   * (DataTransferSaslUtil.wrap, which takes Hadoop's package-private SaslParticipant).
   */
  private static CipherOption wrapped(CipherOption option, SaslServer sasl) throws IOException {
    if (option == null) {
      return null;
    }
    byte[] in = option.getInKey();
    byte[] out = option.getOutKey();
    return new CipherOption(
        option.getCipherSuite(),
        in == null ? null : sasl.wrap(in, 0, in.length),
        option.getInIv(),
        out == null ? null : sasl.wrap(out, 0, out.length),
        option.getOutIv());
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

  /** The DIGEST-MD5 server's questions: the password for the client's user name. */
  private void callbacks(Callback[] callbacks) throws IOException, UnsupportedCallbackException {
    NameCallback name = null;
    PasswordCallback pass = null;
    AuthorizeCallback authorize = null;
    for (Callback c : callbacks) {
      if (c instanceof NameCallback n) {
        name = n;
      } else if (c instanceof PasswordCallback p) {
        pass = p;
      } else if (c instanceof AuthorizeCallback a) {
        authorize = a;
      } else if (!(c instanceof RealmCallback)) {
        throw new UnsupportedCallbackException(c, "unexpected SASL callback");
      }
    }
    if (pass != null && name != null) {
      pass.setPassword(password.of(name.getDefaultName()));
    }
    if (authorize != null) {
      authorize.setAuthorized(true);
      authorize.setAuthorizedID(authorize.getAuthorizationID());
    }
  }

  /** The general handshake: the user name is a token identifier in base64; the token's password. */
  private static char[] tokenPasswordOf(BlockTokens tokens, String userName) throws IOException {
    BlockTokenIdentifier id = new BlockTokenIdentifier();
    id.readFields(
        new DataInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(userName))));
    byte[] secret = tokens.retrievePassword(id);
    return Base64.getEncoder().encodeToString(secret).toCharArray();
  }

  /**
   * The encrypted handshake: the user name is "keyId blockPoolId nonce" (nonce in base64), the
   * password the encryption key recomputed from them, in base64 (SaslDataTransferServer's rules).
   */
  private static char[] encryptionKeyOf(BlockTokens tokens, String userName) throws IOException {
    String[] parts = userName.split(DataTransferSaslUtil.NAME_DELIMITER);
    if (parts.length != 3) {
      throw new IOException(
          "Provided name '"
              + userName
              + "' has "
              + parts.length
              + " components instead of the expected 3.");
    }
    int keyId;
    byte[] nonce;
    try {
      keyId = Integer.parseInt(parts[0]);
      nonce = Base64.getDecoder().decode(parts[2]);
    } catch (IllegalArgumentException e) {
      throw new IOException("Provided name '" + userName + "' is not a data encryption key", e);
    }
    return DataTransferSaslUtil.encryptionKeyToPassword(
        tokens.retrieveDataEncryptionKey(keyId, parts[1], nonce));
  }
}
