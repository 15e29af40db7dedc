package io.hops.namenode.smallfiles;

import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.ops.ReadDatabaseBlock;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.tx.TransactionRunner;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.BlockChecksumOptions;
import org.apache.hadoop.hdfs.protocol.BlockChecksumType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.DatanodeInfoBuilder;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtocol;
import org.apache.hadoop.hdfs.protocol.datatransfer.IOStreamPair;
import org.apache.hadoop.hdfs.protocol.datatransfer.Op;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BaseHeaderProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.OpBlockChecksumProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.OpBlockChecksumResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.OpReadBlockProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ReadOpChecksumInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.io.MD5Hash;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.util.DataChecksum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namenode's read-only data-transfer endpoint (docs/architecture.md, "Small files in the
 * database"): a stock client reading a file stored in the database is given one located block on
 * this address, whose block id is the file's inode id and whose length is the file's, and reads it
 * with Hadoop's own block reader: {@code OP_READ_BLOCK} is answered with a checksum header and
 * packets of the row's bytes with CRC32C sums, as a DataNode answers. Every other operation is
 * refused with {@code ERROR_UNSUPPORTED}. The permission check is the namenode's, when it handed
 * out the location; with block access tokens on ({@code dfs.block.access.token.enable}) the request
 * must carry the token it came with, checked as a DataNode checks it (the keys are the datanodes',
 * from the database), else the block id is the only credential, as on a DataNode without tokens.
 * With Kerberos and {@code dfs.data.transfer.protection} every connection starts with the SASL
 * handshake a secure DataNode requires ({@link BlockServerSasl}).
 */
public final class DatabaseBlockServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseBlockServer.class);
  private static final int BYTES_PER_CHECKSUM = 512;

  private final TransactionRunner runner;
  private final SmallFileStore smallFiles;
  private final BlockTokens tokens;
  private final ServerSocket socket;
  private final ExecutorService workers;
  private final DatanodeInfo node;

  /** SASL data transfer protection, when a secure DataNode would require it; else null. */
  private final BlockServerSasl sasl;

  private volatile boolean closed;

  /** The peer of the connection this worker serves, for log lines. */
  private final ThreadLocal<java.net.SocketAddress> remote = new ThreadLocal<>();

  public DatabaseBlockServer(
      TransactionRunner runner,
      SmallFileStore smallFiles,
      BlockTokens tokens,
      Configuration conf,
      String host,
      int port)
      throws IOException {
    this.runner = runner;
    this.smallFiles = smallFiles;
    this.tokens = tokens;
    this.socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress(host, port));
    this.workers =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "db-block-server");
              t.setDaemon(true);
              return t;
            });
    // Bound to every interface: clients reach it at this host's address.
    String ip =
        socket.getInetAddress().isAnyLocalAddress()
            ? java.net.InetAddress.getLocalHost().getHostAddress()
            : socket.getInetAddress().getHostAddress();
    this.node =
        new DatanodeInfoBuilder()
            .setIpAddr(ip)
            .setHostName(ip)
            .setDatanodeUuid("hops-db-" + UUID.nameUUIDFromBytes(address().toString().getBytes()))
            .setXferPort(socket.getLocalPort())
            .setInfoPort(0)
            .setInfoSecurePort(0)
            .setIpcPort(0)
            .build();
    this.sasl = BlockServerSasl.ifRequired(conf, tokens, socket.getLocalPort());
    Thread acceptor = new Thread(this::acceptLoop, "db-block-server-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Where stock clients read database files: a "datanode" that is this namenode. */
  public DatanodeInfo node() {
    return node;
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket s = socket.accept();
        workers.execute(() -> serve(s));
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("database block server: accept failed", e);
        }
      }
    }
  }

  /** One connection: operations one after another, as a client's peer cache reuses it. */
  private void serve(Socket s) {
    remote.set(s.getRemoteSocketAddress());
    try (s) {
      s.setTcpNoDelay(true);
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
      if (sasl != null) {
        IOStreamPair secured = sasl.handshake(in, out, s.getInetAddress());
        in = new DataInputStream(new BufferedInputStream(secured.in));
        out = new DataOutputStream(new BufferedOutputStream(secured.out));
      }
      while (!closed) {
        short version;
        try {
          version = in.readShort();
        } catch (EOFException e) {
          return; // the client closed the connection
        }
        if (version != DataTransferProtocol.DATA_TRANSFER_VERSION) {
          throw new IOException("data transfer version " + version + " is not supported");
        }
        Op op = Op.read(in);
        if (op == Op.BLOCK_CHECKSUM) {
          blockChecksum(OpBlockChecksumProto.parseFrom(PBHelperClient.vintPrefixed(in)), out);
          return; // as a datanode, which closes the connection after a checksum
        }
        if (op != Op.READ_BLOCK) {
          error(out, Status.ERROR_UNSUPPORTED, op + " is not served by a namenode");
          return;
        }
        if (!readBlock(OpReadBlockProto.parseFrom(PBHelperClient.vintPrefixed(in)), in, out)) {
          return;
        }
      }
    } catch (SocketException | EOFException e) {
      LOG.debug("database block server: connection ended", e);
    } catch (IOException | RuntimeException e) {
      LOG.warn("database block server: request failed", e);
    }
  }

  private static void error(DataOutputStream out, Status status, String message)
      throws IOException {
    BlockOpResponseProto.newBuilder()
        .setStatus(status)
        .setMessage(message)
        .build()
        .writeDelimitedTo(out);
    out.flush();
  }

  /**
   * {@code OP_BLOCK_CHECKSUM} ({@code getFileChecksum}, distcp's check of a copy): the MD5 of the
   * CRC32C of each 512-byte chunk of the row's bytes, as a datanode computes it from the block's
   * meta file, so a database file and its copy on datanodes have the same file checksum.
   */
  private void blockChecksum(OpBlockChecksumProto req, DataOutputStream out) throws IOException {
    var block = PBHelperClient.convert(req.getHeader().getBlock());
    if (!tokenAccepted(req.getHeader(), block, Op.BLOCK_CHECKSUM, out)) {
      return;
    }
    BlockChecksumOptions options =
        req.hasBlockChecksumOptions()
            ? PBHelperClient.convert(req.getBlockChecksumOptions())
            : new BlockChecksumOptions(BlockChecksumType.MD5CRC);
    if (options.getBlockChecksumType() != BlockChecksumType.MD5CRC) {
      error(
          out,
          Status.ERROR_UNSUPPORTED,
          options.getBlockChecksumType() + " checksums of database files are not served");
      return;
    }
    byte[] data;
    try {
      data = runner.run(() -> new ReadDatabaseBlock(smallFiles, block));
    } catch (IOException e) {
      error(out, Status.ERROR, e.getMessage());
      return;
    }
    if (data == null) {
      error(out, Status.ERROR, "Replica not found for " + block);
      return;
    }
    // A request for less than the whole block (the last block of a range) sums that prefix.
    int length = (int) Math.min(data.length, Math.max(0, block.getNumBytes()));
    DataChecksum checksum =
        DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, BYTES_PER_CHECKSUM);
    int chunks = (length + BYTES_PER_CHECKSUM - 1) / BYTES_PER_CHECKSUM;
    byte[] sums = new byte[chunks * checksum.getChecksumSize()];
    checksum.calculateChunkedSums(data, 0, length, sums, 0);
    BlockOpResponseProto.newBuilder()
        .setStatus(Status.SUCCESS)
        .setChecksumResponse(
            OpBlockChecksumResponseProto.newBuilder()
                .setBytesPerCrc(BYTES_PER_CHECKSUM)
                .setCrcPerBlock(chunks)
                .setBlockChecksum(ByteString.copyFrom(MD5Hash.digest(sums).getDigest()))
                .setCrcType(PBHelperClient.convert(DataChecksum.Type.CRC32C))
                .setBlockChecksumOptions(PBHelperClient.convert(options)))
        .build()
        .writeDelimitedTo(out);
    out.flush();
  }

  /**
   * DataXceiver.checkAccess: a token that does not verify is answered with {@code
   * ERROR_ACCESS_TOKEN} (the client then fetches new tokens) and logged as a DataNode logs it.
   */
  private boolean tokenAccepted(
      BaseHeaderProto header, ExtendedBlock block, Op op, DataOutputStream out) throws IOException {
    try {
      tokens.checkAccess(
          PBHelperClient.convert(header.getToken()),
          null,
          block,
          BlockTokenIdentifier.AccessMode.READ);
      return true;
    } catch (SecretManager.InvalidToken e) {
      LOG.warn(
          "Block token verification failed: op={}, remoteAddress={}, message={}",
          op,
          remote.get(),
          e.getLocalizedMessage());
      BlockOpResponseProto.newBuilder()
          .setStatus(Status.ERROR_ACCESS_TOKEN)
          .build()
          .writeDelimitedTo(out);
      out.flush();
      return false;
    }
  }

  /** Serves one read; false when the connection should end. */
  private boolean readBlock(OpReadBlockProto req, DataInputStream in, DataOutputStream out)
      throws IOException {
    var block = PBHelperClient.convert(req.getHeader().getBaseHeader().getBlock());
    if (!tokenAccepted(req.getHeader().getBaseHeader(), block, Op.READ_BLOCK, out)) {
      return false;
    }
    long offset = req.getOffset();
    long length = req.getLen();
    byte[] data;
    try {
      data = runner.run(() -> new ReadDatabaseBlock(smallFiles, block));
    } catch (IOException e) {
      error(out, Status.ERROR, e.getMessage());
      return false;
    }
    if (data == null) {
      error(out, Status.ERROR, "Replica not found for " + block);
      return false;
    }
    if (offset < 0 || offset > data.length || length < 0) {
      error(
          out,
          Status.ERROR_INVALID,
          "Offset " + offset + " and length " + length + " don't match block " + block);
      return false;
    }
    DataChecksum checksum =
        DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, BYTES_PER_CHECKSUM);
    long chunkOffset = offset - offset % BYTES_PER_CHECKSUM;
    long end = Math.min(data.length, offset + length);
    BlockOpResponseProto.newBuilder()
        .setStatus(Status.SUCCESS)
        .setReadOpChecksumInfo(
            ReadOpChecksumInfoProto.newBuilder()
                .setChecksum(DataTransferProtoUtil.toProto(checksum))
                .setChunkOffset(chunkOffset))
        .build()
        .writeDelimitedTo(out);
    long seqno = 0;
    int perPacket = 64 * BYTES_PER_CHECKSUM;
    for (long at = chunkOffset; at < end; at += perPacket) {
      int len = (int) Math.min(perPacket, data.length - at);
      // Whole chunks: the last packet runs to the end of the data so its sums cover it.
      int chunks = (len + BYTES_PER_CHECKSUM - 1) / BYTES_PER_CHECKSUM;
      byte[] sums = new byte[chunks * checksum.getChecksumSize()];
      checksum.calculateChunkedSums(data, (int) at, len, sums, 0);
      PacketHeader h = new PacketHeader(4 + sums.length + len, at, seqno++, false, len, false);
      h.write(out);
      out.write(sums);
      out.write(data, (int) at, len);
    }
    new PacketHeader(4, end, seqno, true, 0, false).write(out);
    out.flush();
    // The client answers with its read status (CHECKSUM_OK) before it reuses the connection.
    PBHelperClient.vintPrefixed(in);
    return true;
  }

  @Override
  public void close() {
    closed = true;
    try {
      socket.close();
    } catch (IOException e) {
      LOG.debug("closing the database block server", e);
    }
    workers.shutdownNow();
  }
}
