package io.hops.namenode.ops;

import io.hops.namenode.tx.TransactionRunner;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BatchedDirectoryListing;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsPartialListing;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.BatchedListingKeyProto;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.thirdparty.protobuf.ByteString;

/**
 * {@code getBatchedListing} (the client's batched listing iterator, {@code
 * DistributedFileSystem.batchedListStatusIterator}): several paths listed in one call, each by a
 * {@link GetListing} transaction of its own, until the entries reach the listing limit. A path that
 * fails is reported in its slot, not thrown. The continuation key is HDFS's: an MD5 of the paths,
 * the index of the path to go on with and the last name listed there.
 */
public final class BatchedListing {
  private BatchedListing() {}

  /** The listing of one path from a name on, with the caller's permissions and options. */
  @FunctionalInterface
  public interface Page {
    GetListing of(String src, byte[] startAfter);
  }

  /** Lists {@code srcs}, each {@code page} a transaction of {@code runner}. */
  public static BatchedDirectoryListing list(
      TransactionRunner runner, Configuration conf, Page page, String[] srcs, byte[] startAfter)
      throws IOException {
    int maxPaths =
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_BATCHED_LISTING_LIMIT,
            DFSConfigKeys.DFS_NAMENODE_BATCHED_LISTING_LIMIT_DEFAULT);
    if (srcs.length > maxPaths) {
      throw new IllegalArgumentException(
          String.format("Too many source paths (%d > %d)", srcs.length, maxPaths));
    }
    int index = 0;
    byte[] after = new byte[0];
    if (startAfter.length > 0) {
      BatchedListingKeyProto key = BatchedListingKeyProto.parseFrom(startAfter);
      if (!Arrays.equals(key.getChecksum().toByteArray(), hash(srcs))) {
        throw new IllegalArgumentException();
      }
      index = key.getPathIndex();
      after = key.getStartAfter().toByteArray();
      if (after.length == 0) {
        index++; // the last entry listed was a file: do not list it twice
      }
    }
    int limit = conf.getInt(DFSConfigKeys.DFS_LIST_LIMIT, DFSConfigKeys.DFS_LIST_LIMIT_DEFAULT);
    List<HdfsPartialListing> listings = new ArrayList<>();
    DirectoryListing last = null;
    int entries = 0;
    for (; index < srcs.length; index++) {
      String src = srcs[index];
      byte[] from = after;
      try {
        DirectoryListing l = runner.run(() -> page.of(src, from));
        if (l == null) {
          throw new FileNotFoundException("Path " + src + " does not exist");
        }
        listings.add(new HdfsPartialListing(index, Arrays.asList(l.getPartialListing())));
        entries += l.getPartialListing().length;
        last = l;
      } catch (IOException | RuntimeException e) {
        listings.add(
            new HdfsPartialListing(
                index, new RemoteException(e.getClass().getCanonicalName(), e.getMessage())));
        last = null;
      }
      after = new byte[0];
      if (entries >= limit) {
        break;
      }
    }
    HdfsPartialListing[] out = listings.toArray(new HdfsPartialListing[0]);
    if (index >= srcs.length || (index == srcs.length - 1 && last != null && !last.hasMore())) {
      return new BatchedDirectoryListing(out, false, new byte[0]);
    }
    byte[] lastName = last != null && last.getLastName() != null ? last.getLastName() : new byte[0];
    byte[] next =
        BatchedListingKeyProto.newBuilder()
            .setChecksum(ByteString.copyFrom(hash(srcs)))
            .setPathIndex(index)
            .setStartAfter(ByteString.copyFrom(lastName))
            .build()
            .toByteArray();
    return new BatchedDirectoryListing(out, true, next);
  }

  private static byte[] hash(String[] srcs) {
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      for (String s : srcs) {
        md5.update(s.getBytes(StandardCharsets.UTF_8));
      }
      return md5.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
