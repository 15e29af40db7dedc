package io.hops.namenode;

import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * hops and Apache HDFS in one run, for the {@code ...LikeHdfsTest} classes that do each step on
 * both and compare: a hops namenode and a MiniDFSCluster, each with a client of the superuser
 * ({@code admin}) and of {@code alice} (group {@code staff}).
 */
public final class SideBySide implements AutoCloseable {
  /** One system's clients. */
  public record Side(DistributedFileSystem admin, DistributedFileSystem alice) {}

  /** A step done on each side in turn. */
  @FunctionalInterface
  public interface Step {
    Object run(Side s) throws Exception;
  }

  public final HopsTestCluster hops;
  public final MiniDFSCluster hdfs;
  public final Side hopsSide;
  public final Side hdfsSide;

  private SideBySide(HopsTestCluster hops, MiniDFSCluster hdfs, Side hopsSide, Side hdfsSide) {
    this.hops = hops;
    this.hdfs = hdfs;
    this.hopsSide = hopsSide;
    this.hdfsSide = hdfsSide;
  }

  /** Starts both systems; {@code name} names HDFS's test directory. */
  public static SideBySide start(String name) throws Exception {
    return start(name, new Configuration(false));
  }

  /** As {@link #start(String)}, both namenodes with the settings of {@code extra}. */
  public static SideBySide start(String name, Configuration extra) throws Exception {
    HopsTestCluster hops = new HopsTestCluster(extra);
    MiniDFSCluster hdfs = ApacheHdfs.start(name, extra);
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    Configuration hdfsClient = ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    Side hopsSide =
        new Side(hops.client(), as(alice, () -> FileSystem.get(hops.uri(), hops.clientConf())));
    Side hdfsSide =
        new Side(
            (DistributedFileSystem) FileSystem.get(hdfs.getURI(), hdfsClient),
            as(alice, () -> FileSystem.get(hdfs.getURI(), hdfsClient)));
    return new SideBySide(hops, hdfs, hopsSide, hdfsSide);
  }

  private static DistributedFileSystem as(
      UserGroupInformation ugi, PrivilegedExceptionAction<FileSystem> get) throws Exception {
    return (DistributedFileSystem) ugi.doAs(get);
  }

  /** How a failed step is compared: the exception's class and the first line of its message. */
  public static String failure(Exception e) {
    String m = String.valueOf(e.getMessage());
    return e.getClass().getName() + ": " + m.lines().findFirst().orElse("");
  }

  @Override
  public void close() throws Exception {
    for (Side s : new Side[] {hopsSide, hdfsSide}) {
      s.admin().close();
      s.alice().close();
    }
    hdfs.shutdown();
    hops.close();
  }
}
