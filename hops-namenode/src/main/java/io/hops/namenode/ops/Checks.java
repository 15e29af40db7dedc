package io.hops.namenode.ops;

import io.hops.namenode.config.Limits;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.hdfs.protocol.FSLimitException.MaxDirectoryItemsExceededException;
import org.apache.hadoop.hdfs.protocol.FSLimitException.PathComponentTooLongException;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;

/** HDFS's limits and checks on new names, with HDFS's exception types and messages. */
public final class Checks {
  private Checks() {}

  /** A component at index {@code i} of the path is a file but the path goes on below it. */
  static ParentNotDirectoryException notADirectory(ResolvedPath p, int i) {
    return new ParentNotDirectoryException(
        PathNames.prefix(p.components(), i) + " (is not a directory)");
  }

  /** dfs.namenode.fs-limits.max-component-length, in bytes of UTF-8. */
  public static void componentLength(Limits limits, String name, String parentPath)
      throws PathComponentTooLongException {
    int limit = limits.maxComponentLength();
    if (limit > 0 && tooLong(name, limit)) {
      int length = name.getBytes(StandardCharsets.UTF_8).length;
      throw new PathComponentTooLongException(limit, length, parentPath, name);
    }
  }

  /**
   * As above, for the name at {@code names[depth - 1]} below the first {@code depth - 1} names: the
   * parent's path is spelled only for the error.
   */
  static void componentLength(Limits limits, String[] names, int depth)
      throws PathComponentTooLongException {
    int limit = limits.maxComponentLength();
    if (limit > 0 && tooLong(names[depth - 1], limit)) {
      componentLength(limits, names[depth - 1], PathNames.prefix(names, depth - 1));
    }
  }

  /**
   * Whether the name takes more than {@code limit} bytes of UTF-8; encoded only when it might,
   * since no char takes more than 3 bytes.
   */
  private static boolean tooLong(String name, int limit) {
    return name.length() * 3 > limit && name.getBytes(StandardCharsets.UTF_8).length > limit;
  }

  /** dfs.namenode.fs-limits.max-directory-items. */
  static void directoryItems(Limits limits, MutableInode parent, String parentPath)
      throws MaxDirectoryItemsExceededException {
    int limit = limits.maxDirectoryItems();
    if (parent.childrenCount >= limit) {
      throw new MaxDirectoryItemsExceededException(parentPath, limit, parent.childrenCount);
    }
  }

  /** As above, for the directory at the first {@code depth} names, spelled only for the error. */
  static void directoryItems(Limits limits, MutableInode parent, String[] names, int depth)
      throws MaxDirectoryItemsExceededException {
    if (parent.childrenCount >= limits.maxDirectoryItems()) {
      directoryItems(limits, parent, PathNames.prefix(names, depth));
    }
  }

  /**
   * Traversal for an operation that creates nothing: there HDFS reports a file in the middle of the
   * path as an {@code AccessControlException}, not a {@code ParentNotDirectoryException}
   * (FSDirectory.resolvePath).
   */
  public static void traverseNotCreating(
      io.hops.namenode.security.PermissionChecker pc, ResolvedPath p)
      throws org.apache.hadoop.security.AccessControlException, io.hops.dal.StorageException {
    try {
      pc.checkTraverse(p);
    } catch (ParentNotDirectoryException e) {
      throw new org.apache.hadoop.security.AccessControlException(e.getMessage());
    }
  }

  /** HDFS refuses to rename to or from {@code /.reserved} itself (FSDirRenameOp). */
  static void notExactReserved(String src, String dst) throws IOException {
    String reserved = org.apache.hadoop.hdfs.protocol.HdfsConstants.DOT_RESERVED_PATH_PREFIX;
    if (src.equals(reserved) || dst.equals(reserved)) {
      throw new org.apache.hadoop.fs.InvalidPathException("Cannot rename to or from /.reserved");
    }
  }

  /**
   * No {@code .reserved} directly under the root: HDFS keeps that name for its virtual paths and
   * refuses it as a child is added (FSDirectory.addLastINode), after the permission checks.
   */
  static void notReserved(int depth, String name) {
    if (depth == 1
        && name.equals(org.apache.hadoop.hdfs.protocol.HdfsConstants.DOT_RESERVED_STRING)) {
      throw new org.apache.hadoop.HadoopIllegalArgumentException(
          "File name \""
              + name
              + "\" is reserved and cannot be created. If this is during upgrade change the name"
              + " of the existing file or directory to another name before upgrading to the new"
              + " release.");
    }
  }

  /** The target must be a file, with HDFS's messages (INodeFile.valueOf). */
  static io.hops.dal.rows.InodeRow file(ResolvedPath p, String path)
      throws java.io.FileNotFoundException {
    io.hops.dal.rows.InodeRow target = p.target();
    if (target == null) {
      throw new java.io.FileNotFoundException("File does not exist: " + path);
    }
    if (target.isDir()) {
      throw new java.io.FileNotFoundException("Path is not a file: " + path);
    }
    return target;
  }

  /**
   * HDFS's limit on the length and depth of a path to create or rename to, then its refusal of an
   * invalid name there. As NameNodeRpcServer.checkPathLength, the path is parsed as a {@link
   * org.apache.hadoop.fs.Path} first: an empty one is an {@code IllegalArgumentException} ("Can not
   * create a Path from an empty string").
   */
  static void pathLength(String op, String src) throws IOException {
    if (tooDeep(src) || src.length() > HdfsServerConstants.MAX_PATH_LENGTH) {
      throw new IOException(
          op
              + ": Pathname too long.  Limit "
              + HdfsServerConstants.MAX_PATH_LENGTH
              + " characters, "
              + HdfsServerConstants.MAX_PATH_DEPTH
              + " levels.");
    }
    PathNames.checkCreatable(src, op.equals("create"));
  }

  /**
   * HDFS's depth check (NameNodeRpcServer.checkPathLength: {@code new Path(src).depth()}), which
   * parses a URI and runs a regular expression (a quarter of a create's lock phase in a profile),
   * and needless for a plain absolute path no longer than the depth limit, whose components cannot
   * outnumber its characters. Any other path is parsed as HDFS parses it, failing as it fails.
   */
  private static boolean tooDeep(String src) {
    boolean plain =
        !src.isEmpty()
            && src.length() <= HdfsServerConstants.MAX_PATH_DEPTH
            && src.charAt(0) == '/'
            && !src.startsWith("//"); // "//x" is an authority to Path
    return !plain
        && new org.apache.hadoop.fs.Path(src).depth() > HdfsServerConstants.MAX_PATH_DEPTH;
  }

  /**
   * dfs.namenode.replication.min and dfs.replication.max, with HDFS's message
   * (BlockManager.verifyReplication); {@code where} ends it.
   */
  static void replication(Limits limits, int replication, String where) throws IOException {
    int min = limits.minReplication();
    int max = limits.maxReplication();
    String error = null;
    if (replication > max) {
      error = " exceeds maximum of " + max;
    } else if (replication < min) {
      error = " is less than the required minimum of " + min;
    }
    if (error != null) {
      throw new IOException(
          "Requested replication factor of " + replication + error + " for " + where);
    }
  }
}
