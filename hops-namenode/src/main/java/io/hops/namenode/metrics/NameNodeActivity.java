package io.hops.namenode.metrics;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.annotation.Metrics;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;

/**
 * HDFS's {@code NameNodeActivity} counters, with HDFS's names, counted per namenode (as in HDFS) by
 * {@link ActivityCounting} in front of the client protocol.
 */
@Metrics(name = "NameNodeActivity", about = "NameNode metrics", context = "dfs")
public final class NameNodeActivity implements MetricsSource {
  final MetricsRegistry registry = new MetricsRegistry("namenode");

  final MutableCounterLong createFileOps;
  final MutableCounterLong filesCreated;
  final MutableCounterLong filesAppended;
  final MutableCounterLong getBlockLocations;
  final MutableCounterLong filesRenamed;
  final MutableCounterLong filesTruncated;
  final MutableCounterLong getListingOps;
  final MutableCounterLong deleteFileOps;

  final MutableCounterLong filesDeleted;

  final MutableCounterLong fileInfoOps;
  final MutableCounterLong addBlockOps;
  final MutableCounterLong getAdditionalDatanodeOps;
  final MutableCounterLong createSymlinkOps;
  final MutableCounterLong getLinkTargetOps;
  final MutableCounterLong filesInGetListingOps;

  public NameNodeActivity() {
    registry.setContext("dfs");
    createFileOps = registry.newCounter("CreateFileOps", "CreateFileOps", 0L);
    filesCreated = registry.newCounter("FilesCreated", "FilesCreated", 0L);
    filesAppended = registry.newCounter("FilesAppended", "FilesAppended", 0L);
    getBlockLocations = registry.newCounter("GetBlockLocations", "GetBlockLocations", 0L);
    filesRenamed = registry.newCounter("FilesRenamed", "FilesRenamed", 0L);
    filesTruncated = registry.newCounter("FilesTruncated", "FilesTruncated", 0L);
    getListingOps = registry.newCounter("GetListingOps", "GetListingOps", 0L);
    deleteFileOps = registry.newCounter("DeleteFileOps", "DeleteFileOps", 0L);
    filesDeleted =
        registry.newCounter(
            "FilesDeleted", "Number of files/dirs deleted by delete or rename operations", 0L);
    fileInfoOps = registry.newCounter("FileInfoOps", "FileInfoOps", 0L);
    addBlockOps = registry.newCounter("AddBlockOps", "AddBlockOps", 0L);
    getAdditionalDatanodeOps =
        registry.newCounter("GetAdditionalDatanodeOps", "GetAdditionalDatanodeOps", 0L);
    createSymlinkOps = registry.newCounter("CreateSymlinkOps", "CreateSymlinkOps", 0L);
    getLinkTargetOps = registry.newCounter("GetLinkTargetOps", "GetLinkTargetOps", 0L);
    filesInGetListingOps = registry.newCounter("FilesInGetListingOps", "FilesInGetListingOps", 0L);
  }

  /** Tells this namenode's counters apart from another's in one JVM (and in Prometheus labels). */
  void tagPort(int rpcPort) {
    registry.tag("Port", "the namenode's RPC port", Integer.toString(rpcPort));
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    registry.snapshot(collector.addRecord(registry.info()), all);
  }
}
