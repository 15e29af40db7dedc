package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Append contract over WebHDFS against a hops namenode with datanodes. */
public class TestHopsWebHdfsContractAppend extends AbstractContractAppendTest {
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
  public void testRenameFileBeingAppended() throws Throwable {
    HopsWebHdfsContract.skipClientLimitation("append opens its stream lazily, at the first write");
  }
}
