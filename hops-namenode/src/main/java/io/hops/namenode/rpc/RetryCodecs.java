package io.hops.namenode.rpc;

import io.hops.namenode.tx.RetryCache;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.HdfsFileStatusProto;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.LocatedBlockProto;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;

/**
 * How the outcomes of the calls HDFS marks {@code @AtMostOnce} are kept in the retry cache: as the
 * protobuf messages the wire carries them in (Hadoop's own translators), so a retry answers exactly
 * what the first call answered. An outcome that is an error is not kept.
 */
final class RetryCodecs {
  private RetryCodecs() {}

  public static final RetryCache.Codec<Boolean> BOOLEAN =
      new RetryCache.Codec<>() {
        @Override
        public byte[] encode(Boolean result) {
          return new byte[] {(byte) (result ? 1 : 0)};
        }

        @Override
        public Boolean decode(byte[] payload) {
          return payload[0] == 1;
        }
      };

  static final RetryCache.Codec<Void> VOID =
      new RetryCache.Codec<>() {
        @Override
        public byte[] encode(Void result) {
          return new byte[0];
        }

        @Override
        public Void decode(byte[] payload) {
          return null;
        }
      };

  /** A created snapshot's path. */
  static final RetryCache.Codec<String> STRING =
      new RetryCache.Codec<>() {
        @Override
        public byte[] encode(String result) {
          return result.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] payload) {
          return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
        }
      };

  /** A create's new file; nothing for a small-file create the namenode declined. */
  public static final RetryCache.Codec<HdfsFileStatus> CREATE =
      new RetryCache.Codec<>() {
        @Override
        public byte[] encode(HdfsFileStatus status) {
          return status == null ? null : PBHelperClient.convert(status).toByteArray();
        }

        @Override
        public HdfsFileStatus decode(byte[] payload) throws IOException {
          return PBHelperClient.convert(HdfsFileStatusProto.parseFrom(payload));
        }
      };

  static final RetryCache.Codec<LastBlockWithStatus> APPEND =
      new RetryCache.Codec<>() {
        @Override
        public byte[] encode(LastBlockWithStatus result) throws IOException {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          LocatedBlock last = result.getLastBlock();
          out.write(last == null ? 0 : 1);
          if (last != null) {
            PBHelperClient.convertLocatedBlock(last).writeDelimitedTo(out);
          }
          PBHelperClient.convert(result.getFileStatus()).writeDelimitedTo(out);
          return out.toByteArray();
        }

        @Override
        public LastBlockWithStatus decode(byte[] payload) throws IOException {
          ByteArrayInputStream in = new ByteArrayInputStream(payload);
          LocatedBlock last =
              in.read() == 1
                  ? PBHelperClient.convertLocatedBlockProto(
                      LocatedBlockProto.parseDelimitedFrom(in))
                  : null;
          return new LastBlockWithStatus(
              last, PBHelperClient.convert(HdfsFileStatusProto.parseDelimitedFrom(in)));
        }
      };
}
