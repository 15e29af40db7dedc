package io.hops.client.contract;

import io.hops.client.HopsDistributedFileSystem;
import io.hops.namenode.contract.HopsContract;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Hadoop's file system contract with the {@code DB} storage policy on the test root's parent
 * ({@code /db}; the contract deletes and remakes the test root itself, which inherits the policy):
 * with hops-client, small files the tests write are kept in the database; with the stock client,
 * they are written to datanodes and everything else (open, seek, rename, ...) meets database files
 * only where hops-client wrote them.
 */
public class DbPolicyContract extends HopsContract {
  /** The directory with the DB policy. */
  public static final Path DB_DIR = new Path("/db");

  /** hops-client's deviations ({@code contract/hops-client.xml}): files appear at their close. */
  public static final String CONTRACT_HOPS_CLIENT_XML = "contract/hops-client.xml";

  public DbPolicyContract(Configuration conf, boolean hopsClient) {
    super(conf);
    if (hopsClient) {
      addConfResource(CONTRACT_HOPS_CLIENT_XML);
    }
  }

  /** The contract cluster, its test file system hops-client's or the stock one. */
  public static void createCluster(boolean hopsClient) throws IOException {
    Configuration extra = new Configuration(false);
    if (hopsClient) {
      extra.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    }
    HopsContract.createCluster(extra);
    FileSystem fs = new DbPolicyContract(new Configuration(), hopsClient).getTestFileSystem();
    fs.mkdirs(DB_DIR);
    fs.setStoragePolicy(DB_DIR, "DB");
    if (hopsClient != fs instanceof HopsDistributedFileSystem) {
      throw new IllegalStateException("the test file system is " + fs.getClass());
    }
  }

  @Override
  public Path getTestPath() {
    return new Path(DB_DIR, "test");
  }
}
