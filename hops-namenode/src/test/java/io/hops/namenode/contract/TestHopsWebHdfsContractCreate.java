package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Create contract over WebHDFS against a hops namenode. */
public class TestHopsWebHdfsContractCreate extends AbstractContractCreateTest {
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
  public void testSyncable() throws Throwable {
    HopsWebHdfsContract.skipClientLimitation("its output stream has no hflush/hsync");
  }
}
