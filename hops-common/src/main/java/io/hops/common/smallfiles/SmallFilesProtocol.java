package io.hops.common.smallfiles;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * hops's extension RPC for small files, served on the namenode's RPC port next to {@code
 * ClientProtocol}: a file of up to the maximum is created and completed with its bytes in one
 * transaction, and read back in one call, without a datanode (docs/architecture.md, "Small files in
 * the database"). Exceptions are those of {@code create} and {@code getBlockLocations}.
 *
 * <p>The namenode implements this interface; on the wire it is the protobuf service of {@code
 * src/main/proto/SmallFilesProtocol.proto} ({@link SmallFilesProtocolPB}, Hadoop's protobuf RPC
 * engine, as HDFS's {@code ClientProtocol}), which the client reaches through {@link
 * SmallFilesProtocolTranslatorPB}.
 */
public interface SmallFilesProtocol {
  /**
   * Creates {@code src} closed, with {@code data} stored in the database, if the directory it goes
   * in has the {@code DB} storage policy (its own or inherited) and the data fits; otherwise
   * changes nothing and returns false, and the client writes the file to datanodes as usual.
   *
   * @param permission the file's permission, already masked by the client's umask
   */
  boolean createSmallFile(
      String src,
      short permission,
      String clientName,
      boolean overwrite,
      boolean createParent,
      short replication,
      long blockSize,
      byte[] data)
      throws IOException;

  /**
   * Appends {@code data} to the database file {@code fileId} in place, wherever it is now (an
   * append follows the file through a rename, as in HDFS), if it is still stored in the database
   * with {@code expectedLength} bytes and the result fits; otherwise changes nothing and returns
   * false, and the client appends through the datanode pipeline. Checked as {@code append} is.
   */
  boolean appendSmallFile(long fileId, long expectedLength, String clientName, byte[] data)
      throws IOException;

  /**
   * The bytes of {@code src} if it is stored in the database (a read-only buffer, the received
   * message's own bytes on the client: not copied); null if it is stored on datanodes (the client
   * then reads it as usual). Checked as {@code getBlockLocations} is.
   */
  ByteBuffer readSmallFile(String src) throws IOException;
}
