package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractRootDirectoryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's RootDirectory contract over WebHDFS against a hops namenode. */
public class TestHopsWebHdfsContractRootDirectory extends AbstractContractRootDirectoryTest {
  @BeforeAll
  public static void createCluster() throws IOException {
    HopsWebHdfsContract.createCluster();
  }

  @AfterAll
  public static void teardownCluster() throws IOException {
    HopsWebHdfsContract.destroyCluster();
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HopsWebHdfsContract(conf);
  }

  @Test
  @Override
  public void testListEmptyRootDirectory() throws IOException {
    HopsContract.assumeHadoopCompatibleAssertJ();
    super.testListEmptyRootDirectory();
  }

  @Test
  @Override
  public void testRmEmptyRootDirNonRecursive() throws Throwable {
    HopsContract.assumeHadoopCompatibleAssertJ();
    super.testRmEmptyRootDirNonRecursive();
  }
}
