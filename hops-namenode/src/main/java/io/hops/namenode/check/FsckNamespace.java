package io.hops.namenode.check;

import io.hops.namenode.security.PermissionChecker;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * The calls by path that {@link Fsck}'s walk makes with the caller's permissions, each one
 * transaction: a file's status, a directory's listing page and {@code -delete}. Their operations
 * still take the whole {@code Namesystem}, which this package does not reach (docs/development.md,
 * "Package layering"); once they take their collaborators, the walk builds them itself.
 */
public interface FsckNamespace {
  /** {@code getFileInfo}: null when the path does not exist. */
  HdfsFileStatus fileInfo(PermissionChecker pc, String path) throws IOException;

  /** One page of {@code getListing}, after {@code from}, without block locations. */
  DirectoryListing listing(PermissionChecker pc, String dir, byte[] from) throws IOException;

  /** A recursive {@code delete}. */
  void delete(PermissionChecker pc, String path) throws IOException;
}
