package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.SideBySide;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A storage policy whose storage type no datanode has, against hops and Apache HDFS with the same
 * layout (three DataNodes with only DISK volumes): ALL_SSD falls back to DISK (its creation
 * fallback); COLD has no fallback, so its blocks cannot be placed and the write fails as in HDFS.
 */
class StorageTypeFallbackLikeHdfsTest {
  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsFs;
  private static DistributedFileSystem hdfsFs;

  @BeforeAll
  static void start() throws Exception {
    hops = new HopsTestCluster(new Configuration(false));
    hops.startTypedDatanodes(3, StorageType.DISK);
    hopsFs = hops.client();
    hdfs = StorageTypePlacementLikeHdfsTest.startHdfs("fallback", 3, StorageType.DISK);
    hdfsFs = (DistributedFileSystem) FileSystem.get(hdfs.getURI(), ApacheHdfs.clientConf(hdfs, 3));
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
  void allSsdWithoutSsdFallsBackToDiskLikeHdfs() throws Exception {
    List<List<String>> seen = new ArrayList<>();
    for (DistributedFileSystem fs : new DistributedFileSystem[] {hopsFs, hdfsFs}) {
      Path dir = new Path("/ssd");
      seen.add(
          StorageTypePlacementLikeHdfsTest.writeUnder(
              fs, dir, "ALL_SSD", new Path(dir, "f"), 5000, (short) 3));
    }
    assertThat(seen.get(0)).containsExactly("DISK,DISK,DISK").isEqualTo(seen.get(1));
    assertThat(
            StorageTypePlacementLikeHdfsTest.onVolumes(
                hopsFs, hops.datanodes(), new Path("/ssd/f")))
        .containsExactly("DISK,DISK,DISK");
  }

  @Test
  void coldWithoutArchiveCannotPlaceABlockLikeHdfs() throws Exception {
    List<String> seen = new ArrayList<>();
    for (DistributedFileSystem fs : new DistributedFileSystem[] {hopsFs, hdfsFs}) {
      Path dir = new Path("/cold");
      fs.mkdirs(dir);
      fs.setStoragePolicy(dir, "COLD");
      Path file = new Path(dir, "f");
      String outcome;
      try {
        StorageTypePlacementLikeHdfsTest.write(fs, file, 5000, (short) 3);
        outcome = "written";
      } catch (java.io.IOException e) {
        outcome = SideBySide.failure(e);
      }
      seen.add(outcome + " / length " + fs.getFileStatus(file).getLen());
    }
    assertThat(seen.get(0))
        .startsWith(
            "org.apache.hadoop.ipc.RemoteException: File /cold/f could only be written to 0")
        .isEqualTo(seen.get(1));
  }
}
