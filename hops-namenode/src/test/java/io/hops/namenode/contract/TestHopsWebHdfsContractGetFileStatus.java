package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's GetFileStatus contract over WebHDFS against a hops namenode. */
public class TestHopsWebHdfsContractGetFileStatus extends AbstractContractGetFileStatusTest {
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
  public void testListStatusIteratorFile() throws Throwable {
    HopsContract.assumeHadoopCompatibleAssertJ();
    super.testListStatusIteratorFile();
  }
}
