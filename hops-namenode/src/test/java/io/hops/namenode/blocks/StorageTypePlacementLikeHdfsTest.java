package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Block placement by storage policy against hops and Apache HDFS (a MiniDFSCluster) with the same
 * datanode layout: three stock DataNodes, each with an SSD, a DISK and an ARCHIVE volume. Files
 * written by the stock client under directories of each policy get replicas on the storage types
 * the policy asks for, both in the located blocks and on the datanodes' volumes; raising the
 * replication of a ONE_SSD file adds DISK replicas.
 */
class StorageTypePlacementLikeHdfsTest {
  private static final StorageType[] LAYOUT = {
    StorageType.SSD, StorageType.DISK, StorageType.ARCHIVE
  };
  private static final int BLOCK = 1024 * 1024;

  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsFs;
  private static DistributedFileSystem hdfsFs;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    hops = new HopsTestCluster(conf);
    hops.startTypedDatanodes(3, LAYOUT);
    hopsFs = hops.client();
    hdfs = startHdfs("placement", 3, LAYOUT);
    hdfsFs = (DistributedFileSystem) FileSystem.get(hdfs.getURI(), ApacheHdfs.clientConf(hdfs, 3));
  }

  /** A MiniDFSCluster whose datanodes each have one volume per type of {@code types}. */
  static MiniDFSCluster startHdfs(String name, int datanodes, StorageType... types)
      throws IOException {
    Configuration conf = new Configuration();
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/minidfs-" + name + "-" + System.nanoTime()).getAbsolutePath());
    MiniDFSCluster c =
        new MiniDFSCluster.Builder(conf)
            .numDataNodes(datanodes)
            .storagesPerDatanode(types.length)
            .storageTypes(types)
            .build();
    c.waitActive();
    return c;
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {hopsFs, hdfsFs}) {
      if (c != null) {
        c.close();
      }
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (hops != null) {
      hops.close();
    }
  }

  @Test
  void everyPolicyPlacesItsStorageTypesLikeHdfs() throws Exception {
    String[][] cases = {
      {"HOT", "DISK,DISK,DISK"},
      {"WARM", "ARCHIVE,ARCHIVE,DISK"},
      {"COLD", "ARCHIVE,ARCHIVE,ARCHIVE"},
      {"ONE_SSD", "DISK,DISK,SSD"},
      {"ALL_SSD", "SSD,SSD,SSD"},
    };
    for (String[] c : cases) {
      Path dir = new Path("/placed/" + c[0].toLowerCase());
      Path file = new Path(dir, "f");
      List<String> hopsTypes = writeUnder(hopsFs, dir, c[0], file, 2 * BLOCK + 10, (short) 3);
      List<String> hdfsTypes = writeUnder(hdfsFs, dir, c[0], file, 2 * BLOCK + 10, (short) 3);
      assertThat(hopsTypes).as(c[0] + " on hops").containsOnly(c[1]).hasSize(3);
      assertThat(hopsTypes).as(c[0] + " like HDFS").isEqualTo(hdfsTypes);
      assertThat(onVolumes(hopsFs, hops.datanodes(), file))
          .as(c[0] + ": volumes holding each block on hops")
          .isEqualTo(hopsTypes)
          .isEqualTo(onVolumes(hdfsFs, hdfs.getDataNodes(), file));
    }
  }

  @Test
  void policyOfAnAncestorAppliesAndAFilesOwnWins() throws Exception {
    List<String> seen = new ArrayList<>();
    for (DistributedFileSystem fs : new DistributedFileSystem[] {hopsFs, hdfsFs}) {
      Path top = new Path("/inherit");
      fs.mkdirs(new Path(top, "a/b"));
      fs.setStoragePolicy(top, "COLD");
      Path deep = new Path(top, "a/b/f");
      write(fs, deep, 100, (short) 2);
      Path own = new Path(top, "a/own");
      fs.create(own).close();
      fs.setStoragePolicy(own, "ALL_SSD");
      FSDataOutputStream out = fs.append(own);
      out.write(new byte[100]);
      out.close();
      HopsTestCluster.awaitReplicas(fs, own, 3);
      seen.add(types(fs, deep) + " " + types(fs, own));
    }
    assertThat(seen.get(0)).isEqualTo("[ARCHIVE,ARCHIVE] [SSD,SSD,SSD]").isEqualTo(seen.get(1));
  }

  @Test
  void raisingTheReplicationOfAOneSsdFileAddsDiskReplicasLikeHdfs() throws Exception {
    List<String> seen = new ArrayList<>();
    for (DistributedFileSystem fs : new DistributedFileSystem[] {hopsFs, hdfsFs}) {
      Path dir = new Path("/raise");
      Path file = new Path(dir, "f");
      List<String> before = writeUnder(fs, dir, "ONE_SSD", file, 1000, (short) 1);
      fs.setReplication(file, (short) 3);
      HopsTestCluster.awaitReplicas(fs, file, 3);
      seen.add(before + " -> " + types(fs, file));
    }
    assertThat(seen.get(0)).isEqualTo("[SSD] -> [DISK,DISK,SSD]").isEqualTo(seen.get(1));
    assertThat(onVolumes(hopsFs, hops.datanodes(), new Path("/raise/f")))
        .containsExactly("DISK,DISK,SSD");
  }

  /**
   * Makes {@code dir} with {@code policy}, writes {@code file} under it and waits for every
   * replica: the sorted storage types of each block's replicas, one string per block.
   */
  static List<String> writeUnder(
      DistributedFileSystem fs, Path dir, String policy, Path file, int length, short replication)
      throws IOException {
    fs.mkdirs(dir);
    fs.setStoragePolicy(dir, policy);
    write(fs, file, length, replication);
    return types(fs, file);
  }

  static void write(DistributedFileSystem fs, Path file, int length, short replication)
      throws IOException {
    try (FSDataOutputStream out = fs.create(file, true, 4096, replication, BLOCK)) {
      out.write(new byte[length]);
    }
    HopsTestCluster.awaitReplicas(fs, file, replication);
  }

  /** The sorted storage types of each block's replicas, one string per block. */
  static List<String> types(FileSystem fs, Path file) throws IOException {
    List<String> out = new ArrayList<>();
    for (BlockLocation l : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
      out.add(sorted(Arrays.stream(l.getStorageTypes()).map(StorageType::name)));
    }
    return out;
  }

  /**
   * The sorted storage types of the datanode volumes that hold a block file of each block of {@code
   * file}, as the datanodes name their volumes' types (waits up to 30 s for the files).
   */
  static List<String> onVolumes(FileSystem fs, List<DataNode> datanodes, Path file)
      throws Exception {
    BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, Long.MAX_VALUE);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      List<String> out = new ArrayList<>();
      boolean all = true;
      for (BlockLocation l : blocks) {
        String name = blockFileName(fs, file, l);
        List<String> on = new ArrayList<>();
        for (DataNode dn : datanodes) {
          try (FsDatasetSpi.FsVolumeReferences refs = dn.getFSDataset().getFsVolumeReferences()) {
            for (FsVolumeSpi v : refs) {
              if (holds(new File(v.getBaseURI()), name)) {
                on.add(v.getStorageType().name());
              }
            }
          }
        }
        all &= on.size() == l.getHosts().length;
        out.add(sorted(on.stream()));
      }
      if (all || System.nanoTime() > deadline) {
        return out;
      }
      Thread.sleep(100);
    }
  }

  private static String blockFileName(FileSystem fs, Path file, BlockLocation l)
      throws IOException {
    for (var b :
        ((DistributedFileSystem) fs)
            .getClient()
            .getLocatedBlocks(file.toString(), 0)
            .getLocatedBlocks()) {
      if (b.getStartOffset() == l.getOffset()) {
        return "blk_" + b.getBlock().getBlockId();
      }
    }
    throw new AssertionError("no block at " + l.getOffset() + " of " + file);
  }

  private static boolean holds(File volume, String blockFile) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.walk(volume.toPath())) {
      return files.anyMatch(p -> p.getFileName().toString().equals(blockFile));
    } catch (java.io.UncheckedIOException e) {
      return false; // a replica moved (rbw to finalized) during the walk: look again
    }
  }

  private static String sorted(Stream<String> types) {
    return String.join(",", types.sorted().toList());
  }
}
