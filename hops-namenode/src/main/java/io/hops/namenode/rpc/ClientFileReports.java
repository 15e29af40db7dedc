package io.hops.namenode.rpc;

import io.hops.dal.Storage;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.ops.GetStats;
import io.hops.namenode.ops.ListCorruptFileBlocks;
import io.hops.namenode.ops.ListOpenFiles;
import io.hops.namenode.security.LongNames;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.CorruptFileBlocks;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;

/** The {@code ClientProtocol} reports for operators on files: open files and corrupt files. */
public final class ClientFileReports {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final Configuration conf;
  private final Storage storage;
  private final UsersAndGroups users;

  public ClientFileReports(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      Configuration conf,
      Storage storage,
      UsersAndGroups users) {
    this.runner = runner;
    this.checkers = checkers;
    this.blocks = blocks;
    this.conf = conf;
    this.storage = storage;
    this.users = users;
  }

  /**
   * The files being written, from the lease tables; with {@code BLOCKING_DECOMMISSION} alone, those
   * holding up a datanode being decommissioned or entering maintenance ({@link
   * ListOpenFiles#blockingDecommission}).
   */
  BatchedEntries<OpenFileEntry> listOpenFiles(
      long prevId, EnumSet<OpenFilesType> types, String path) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "listOpenFiles");
    String normalized = new Path(path).toString();
    if (!types.contains(OpenFilesType.ALL_OPEN_FILES)) {
      if (!types.contains(OpenFilesType.BLOCKING_DECOMMISSION)) {
        throw new IllegalArgumentException("Unknown OpenFileType: " + types);
      }
    }
    boolean blocking = !types.contains(OpenFilesType.ALL_OPEN_FILES);
    int limit =
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_LIST_OPENFILES_NUM_RESPONSES,
            DFSConfigKeys.DFS_NAMENODE_LIST_OPENFILES_NUM_RESPONSES_DEFAULT);
    int defaultReplication =
        conf.getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    var page =
        runner.run(
            () ->
                blocking
                    ? ListOpenFiles.blockingDecommission(
                        normalized, prevId, limit, blocks, defaultReplication)
                    : new ListOpenFiles(normalized, prevId, limit));
    List<OpenFileEntry> named = new ArrayList<>(page.size());
    for (int i = 0; i < page.size(); i++) {
      var e = page.get(i);
      named.add(
          LongNames.isDigest(e.getClientName())
              ? new OpenFileEntry(
                  e.getId(),
                  e.getFilePath(),
                  users.longNames().name(e.getClientName()),
                  e.getClientMachine())
              : e);
    }
    return new BatchedListEntries<>(named, page.hasMore());
  }

  CorruptFileBlocks listCorruptFileBlocks(String path, String cookie) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "listCorruptFileBlocks");
    var missing = GetStats.missingBlocks(storage, blocks);
    int limit =
        conf.getInt(
            DFSConfigKeys.DFS_DEFAULT_MAX_CORRUPT_FILES_RETURNED_KEY,
            DFSConfigKeys.DFS_DEFAULT_MAX_CORRUPT_FILES_RETURNED);
    return runner.run(() -> new ListCorruptFileBlocks(missing, path, cookie, limit));
  }
}
