package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.GetStats;
import io.hops.namenode.ops.ListCorruptFileBlocks;
import io.hops.namenode.ops.ListOpenFiles;
import io.hops.namenode.security.LongNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.CorruptFileBlocks;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;

/** The {@code ClientProtocol} reports for operators on files: open files and corrupt files. */
final class ClientFileReports {
  private final Namesystem ns;

  ClientFileReports(Namesystem ns) {
    this.ns = ns;
  }

  /**
   * The files being written, from the lease tables; with {@code BLOCKING_DECOMMISSION} alone, those
   * holding up a datanode being decommissioned or entering maintenance ({@link
   * ListOpenFiles#blockingDecommission}).
   */
  BatchedEntries<OpenFileEntry> listOpenFiles(
      long prevId, EnumSet<OpenFilesType> types, String path) throws IOException {
    NamenodeRpc.checkSuperuser(ns.checkers(), "listOpenFiles");
    String normalized = new Path(path).toString();
    if (!types.contains(OpenFilesType.ALL_OPEN_FILES)) {
      if (!types.contains(OpenFilesType.BLOCKING_DECOMMISSION)) {
        throw new IllegalArgumentException("Unknown OpenFileType: " + types);
      }
    }
    boolean blocking = !types.contains(OpenFilesType.ALL_OPEN_FILES);
    int limit =
        ns.conf()
            .getInt(
                DFSConfigKeys.DFS_NAMENODE_LIST_OPENFILES_NUM_RESPONSES,
                DFSConfigKeys.DFS_NAMENODE_LIST_OPENFILES_NUM_RESPONSES_DEFAULT);
    int defaultReplication =
        ns.conf().getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    var page =
        ns.run(
            () ->
                blocking
                    ? ListOpenFiles.blockingDecommission(
                        normalized, prevId, limit, ns.blocks(), defaultReplication)
                    : new ListOpenFiles(normalized, prevId, limit));
    List<OpenFileEntry> named = new ArrayList<>(page.size());
    for (int i = 0; i < page.size(); i++) {
      var e = page.get(i);
      named.add(
          LongNames.isDigest(e.getClientName())
              ? new OpenFileEntry(
                  e.getId(),
                  e.getFilePath(),
                  ns.users().longNames().name(e.getClientName()),
                  e.getClientMachine())
              : e);
    }
    return new BatchedListEntries<>(named, page.hasMore());
  }

  CorruptFileBlocks listCorruptFileBlocks(String path, String cookie) throws IOException {
    NamenodeRpc.checkSuperuser(ns.checkers(), "listCorruptFileBlocks");
    var missing = GetStats.missingBlocks(ns.storage(), ns.blocks());
    int limit =
        ns.conf()
            .getInt(
                DFSConfigKeys.DFS_DEFAULT_MAX_CORRUPT_FILES_RETURNED_KEY,
                DFSConfigKeys.DFS_DEFAULT_MAX_CORRUPT_FILES_RETURNED);
    return ns.run(() -> new ListCorruptFileBlocks(missing, path, cookie, limit));
  }
}
