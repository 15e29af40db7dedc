package io.hops.client;

import io.hops.common.smallfiles.SmallFilesProtocolPB;
import io.hops.common.smallfiles.proto.SmallFilesProtos.ReadSmallFileRequestProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.ReadSmallFileResponseProto;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.ipc.CallerContext;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.ClientId;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.protobuf.IpcConnectionContextProtos.IpcConnectionContextProto;
import org.apache.hadoop.ipc.protobuf.IpcConnectionContextProtos.UserInformationProto;
import org.apache.hadoop.ipc.protobuf.ProtobufRpcEngine2Protos.RequestHeaderProto;
import org.apache.hadoop.ipc.protobuf.RpcHeaderProtos.RPCCallerContextProto;
import org.apache.hadoop.ipc.protobuf.RpcHeaderProtos.RpcKindProto;
import org.apache.hadoop.ipc.protobuf.RpcHeaderProtos.RpcRequestHeaderProto;
import org.apache.hadoop.ipc.protobuf.RpcHeaderProtos.RpcResponseHeaderProto;
import org.apache.hadoop.ipc.protobuf.RpcHeaderProtos.RpcResponseHeaderProto.RpcStatusProto;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.CodedInputStream;
import org.apache.hadoop.thirdparty.protobuf.CodedOutputStream;
import org.apache.hadoop.thirdparty.protobuf.MessageLite;

/**
 * {@code readSmallFile} calls to one namenode on connections of their own, one call at a time each,
 * written and answered on the calling thread: the same Hadoop RPC wire messages (protocol version
 * 9, protobuf engine, simple authentication) the stock IPC client sends, without its hand-offs. The
 * stock client multiplexes every call of a process on one connection, handing each request to a
 * sending thread and each answer back from the connection's reading thread: for a 4 KB read those
 * two hand-offs cost more client CPU than the call itself.
 *
 * <p>A call borrows an idle connection (or opens one), writes the request, reads the answer, and
 * returns the connection. A connection that fails is closed; a call that fails on a reused
 * connection before any answer (the namenode closed it while idle) is tried once on a new one, as
 * the read changes nothing. A call still unanswered after {@code ipc.client.rpc-timeout.ms} has its
 * connection closed and raises {@link SocketTimeoutException}, as the stock client's does. Only for
 * simple authentication without tokens: {@link #usable} says when; otherwise the stock client makes
 * the call (SASL).
 */
final class DirectReadConnections implements AutoCloseable {
  private static final byte[] HEADER = {'h', 'r', 'p', 'c', 9, 0, 0}; // version, class, no SASL
  private static final int CONNECTION_CONTEXT_CALL_ID = -3;
  private static final int MAX_IDLE_CONNECTIONS = 64;

  private final InetSocketAddress address;
  private final UserGroupInformation ugi;
  private final byte[] clientId = ClientId.getClientId();
  private final ByteString clientIdBytes = ByteString.copyFrom(clientId);
  private final int connectTimeout;
  private final int rpcTimeout;
  private final long maxIdleNanos;
  private final int maxResponse;
  private final RequestHeaderProto method =
      RequestHeaderProto.newBuilder()
          .setMethodName("readSmallFile")
          .setDeclaringClassProtocolName(SmallFilesProtocolPB.NAME)
          .setClientProtocolVersion(SmallFilesProtocolPB.VERSION)
          .build();
  private final ConcurrentLinkedDeque<Conn> idle = new ConcurrentLinkedDeque<>();
  private final AtomicInteger callIds = new AtomicInteger();

  /** The connections not closed yet, for {@link #expire}. */
  private final Set<Conn> open = ConcurrentHashMap.newKeySet();

  private final ScheduledFuture<?> expiry;
  private final LongAdder calls = new LongAdder();
  private volatile boolean closed;

  DirectReadConnections(InetSocketAddress address, Configuration conf, UserGroupInformation ugi) {
    this.address = address;
    this.ugi = ugi;
    this.connectTimeout =
        conf.getInt(
            CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY,
            CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_DEFAULT);
    this.rpcTimeout = Math.max(0, Client.getRpcTimeout(conf));
    this.maxIdleNanos =
        conf.getInt(
                CommonConfigurationKeysPublic.IPC_CLIENT_CONNECTION_MAXIDLETIME_KEY,
                CommonConfigurationKeysPublic.IPC_CLIENT_CONNECTION_MAXIDLETIME_DEFAULT)
            * 1_000_000L;
    this.expiry =
        rpcTimeout == 0
            ? null
            : Timeouts.WATCHDOG.scheduleWithFixedDelay(
                this::expire,
                Math.max(10, Math.min(1000, rpcTimeout / 4)),
                Math.max(10, Math.min(1000, rpcTimeout / 4)),
                TimeUnit.MILLISECONDS);
    this.maxResponse =
        conf.getInt(
            CommonConfigurationKeys.IPC_MAXIMUM_RESPONSE_LENGTH,
            CommonConfigurationKeys.IPC_MAXIMUM_RESPONSE_LENGTH_DEFAULT);
  }

  /**
   * Whether calls as {@code ugi} can go this way: the stock client would authenticate them with
   * SASL (Kerberos, or tokens it holds) otherwise.
   */
  static boolean usable(UserGroupInformation ugi) {
    return !UserGroupInformation.isSecurityEnabled()
        && ugi.getAuthenticationMethod() != UserGroupInformation.AuthenticationMethod.KERBEROS
        && ugi.getTokens().isEmpty();
  }

  /**
   * The file's bytes, or null for a file on datanodes; a namenode's exception as the {@link
   * RemoteException} the stock client raises; an unreachable namenode as its {@link
   * java.net.ConnectException}.
   */
  ByteBuffer readSmallFile(String src) throws IOException {
    calls.increment();
    int callId = callIds.getAndIncrement() & Integer.MAX_VALUE;
    byte[] request = request(src, callId);
    Conn c = idle.pollFirst();
    long now = System.nanoTime();
    while (c != null && now - c.lastUsed > maxIdleNanos) {
      c.close(); // the namenode may have closed it already
      c = idle.pollFirst();
    }
    ReadSmallFileResponseProto res;
    if (c == null) {
      res = attempt(open(), request, callId);
    } else {
      try {
        res = attempt(c, request, callId);
      } catch (EOFException | SocketException e) {
        res = attempt(open(), request, callId); // closed while idle: once more on a new connection
      }
    }
    return res.hasData() ? res.getData().asReadOnlyByteBuffer() : null;
  }

  /**
   * One call on {@code c}; the connection goes back to the idle ones after an answer (an exception
   * of the namenode's included) and is closed after any other failure.
   */
  private ReadSmallFileResponseProto attempt(Conn c, byte[] request, int callId)
      throws IOException {
    try {
      ReadSmallFileResponseProto res = c.call(request, callId);
      release(c);
      return res;
    } catch (RemoteException e) {
      release(c);
      throw e;
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  private void release(Conn c) {
    c.lastUsed = System.nanoTime();
    if (c.closed || closed || idle.size() >= MAX_IDLE_CONNECTIONS) {
      c.close();
    } else {
      idle.offerFirst(c);
    }
  }

  /** One call's bytes: the length, then the RPC header, method header and request, delimited. */
  private byte[] request(String src, int callId) throws IOException {
    RpcRequestHeaderProto.Builder header =
        RpcRequestHeaderProto.newBuilder()
            .setRpcKind(RpcKindProto.RPC_PROTOCOL_BUFFER)
            .setRpcOp(RpcRequestHeaderProto.OperationProto.RPC_FINAL_PACKET)
            .setCallId(callId)
            .setRetryCount(0)
            .setClientId(clientIdBytes);
    CallerContext context = CallerContext.getCurrent();
    if (context != null && context.isContextValid()) {
      RPCCallerContextProto.Builder cc =
          RPCCallerContextProto.newBuilder().setContext(context.getContext());
      if (context.getSignature() != null) {
        cc.setSignature(ByteString.copyFrom(context.getSignature()));
      }
      header.setCallerContext(cc);
    }
    return frame(
        header.build(), method, ReadSmallFileRequestProto.newBuilder().setSrc(src).build());
  }

  /** {@code messages}, each length-delimited, after their total length as 4 bytes. */
  private static byte[] frame(MessageLite... messages) throws IOException {
    int length = 0;
    for (MessageLite m : messages) {
      int size = m.getSerializedSize();
      length += CodedOutputStream.computeUInt32SizeNoTag(size) + size;
    }
    byte[] out = new byte[4 + length];
    ByteBuffer.wrap(out).putInt(length);
    CodedOutputStream cos = CodedOutputStream.newInstance(out, 4, length);
    for (MessageLite m : messages) {
      cos.writeUInt32NoTag(m.getSerializedSize());
      m.writeTo(cos);
    }
    cos.checkNoSpaceLeft();
    return out;
  }

  private Conn open() throws IOException {
    if (closed) {
      throw new IOException("Filesystem closed");
    }
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setKeepAlive(true);
      NetUtils.connect(s, address, connectTimeout);
      // Reads block without a timeout (one read per answer, where a timed read is a read, a poll
      // and a read again); a call past the RPC timeout has its socket closed by expire().
      s.setSoTimeout(0);
      UserInformationProto.Builder user =
          UserInformationProto.newBuilder().setEffectiveUser(ugi.getUserName());
      if (ugi.getRealUser() != null) {
        user.setRealUser(ugi.getRealUser().getUserName());
      }
      RpcRequestHeaderProto contextHeader =
          RpcRequestHeaderProto.newBuilder()
              .setRpcKind(RpcKindProto.RPC_PROTOCOL_BUFFER)
              .setRpcOp(RpcRequestHeaderProto.OperationProto.RPC_FINAL_PACKET)
              .setCallId(CONNECTION_CONTEXT_CALL_ID)
              .setRetryCount(-1)
              .setClientId(clientIdBytes)
              .build();
      IpcConnectionContextProto context =
          IpcConnectionContextProto.newBuilder()
              .setProtocol(SmallFilesProtocolPB.NAME)
              .setUserInfo(user)
              .build();
      ByteArrayOutputStream hello = new ByteArrayOutputStream();
      hello.write(HEADER);
      hello.write(frame(contextHeader, context));
      // Sent with the first call, as the stock client does (no answer comes to these).
      return new Conn(s, hello.toByteArray());
    } catch (IOException | RuntimeException e) {
      s.close();
      throw NetUtils.wrapException(
          address.getHostName(),
          address.getPort(),
          NetUtils.getHostname(),
          0,
          e instanceof IOException io ? io : new IOException(e));
    }
  }

  /** Calls made so far (tests). */
  long calls() {
    return calls.sum();
  }

  /**
   * Closes the connections of calls waiting longer than the RPC timeout ({@code
   * ipc.client.rpc-timeout.ms}); each such call raises a {@link SocketTimeoutException}.
   */
  private void expire() {
    long now = System.nanoTime();
    long limit = rpcTimeout * 1_000_000L;
    for (Conn c : open) {
      long started = c.started;
      if (started != 0 && now - started > limit) {
        c.timedOut = true;
        c.close();
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    if (expiry != null) {
      expiry.cancel(false);
    }
    for (Conn c; (c = idle.pollFirst()) != null; ) {
      c.close();
    }
  }

  /** One daemon thread for the RPC timeouts of every instance. */
  private static final class Timeouts {
    static final ScheduledExecutorService WATCHDOG =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "hops-client direct read timeouts");
              t.setDaemon(true);
              return t;
            });
  }

  /** One socket to the namenode, used by one call at a time. */
  private final class Conn {
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private byte[] hello;
    volatile boolean closed;
    volatile boolean timedOut;

    /** When the call under way started ({@link System#nanoTime}, never 0), or 0 between calls. */
    volatile long started;

    long lastUsed;

    Conn(Socket socket, byte[] hello) throws IOException {
      this.socket = socket;
      this.out = socket.getOutputStream();
      this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 8192));
      this.hello = hello;
      open.add(this);
    }

    ReadSmallFileResponseProto call(byte[] request, int callId) throws IOException {
      started = System.nanoTime() | 1;
      try {
        return exchange(request, callId);
      } catch (IOException e) {
        if (timedOut) {
          SocketTimeoutException t =
              new SocketTimeoutException(
                  rpcTimeout + " millis timeout while waiting for the answer of " + address);
          t.initCause(e);
          throw t;
        }
        throw e;
      } finally {
        started = 0;
      }
    }

    private ReadSmallFileResponseProto exchange(byte[] request, int callId) throws IOException {
      if (hello != null) {
        byte[] both = new byte[hello.length + request.length];
        System.arraycopy(hello, 0, both, 0, hello.length);
        System.arraycopy(request, 0, both, hello.length, request.length);
        hello = null;
        out.write(both);
      } else {
        out.write(request);
      }
      out.flush();
      int length = in.readInt();
      if (length < 0 || (maxResponse > 0 && length > maxResponse)) {
        throw new IOException("RPC response has an invalid length of " + length);
      }
      byte[] answer = new byte[length];
      in.readFully(answer);
      CodedInputStream cis = CodedInputStream.newInstance(answer);
      cis.enableAliasing(true); // the data field stays in this fresh array: no copy
      RpcResponseHeaderProto header = delimited(cis, RpcResponseHeaderProto.parser());
      if (header.getCallId() != callId) {
        throw new IOException("RPC response to call " + header.getCallId() + ", not " + callId);
      }
      if (header.getStatus() != RpcStatusProto.SUCCESS) {
        String cls =
            header.hasExceptionClassName()
                ? header.getExceptionClassName()
                : "ServerDidNotSetExceptionClassName";
        String msg = header.hasErrorMsg() ? header.getErrorMsg() : "ServerDidNotSetErrorMsg";
        RemoteException e =
            new RemoteException(cls, msg, header.hasErrorDetail() ? header.getErrorDetail() : null);
        if (header.getStatus() == RpcStatusProto.FATAL) {
          close();
        }
        throw e;
      }
      return delimited(cis, ReadSmallFileResponseProto.parser());
    }

    void close() {
      closed = true;
      open.remove(this);
      try {
        socket.close();
      } catch (IOException e) {
        // closing
      }
    }
  }

  private static <T> T delimited(
      CodedInputStream cis, org.apache.hadoop.thirdparty.protobuf.Parser<T> parser)
      throws IOException {
    int size = cis.readRawVarint32();
    int limit = cis.pushLimit(size);
    T m = parser.parseFrom(cis);
    cis.popLimit(limit);
    return m;
  }
}
