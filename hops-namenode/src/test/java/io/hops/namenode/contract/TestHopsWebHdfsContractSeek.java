package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Seek contract over WebHDFS against a hops namenode with datanodes. */
public class TestHopsWebHdfsContractSeek extends AbstractContractSeekTest {
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
  public void testSeekReadClosedFile() throws Throwable {
    HopsWebHdfsContract.skipClientLimitation("its input stream accepts a seek after close");
  }

  @Test
  @Override
  public void testSeekPastEndOfFileThenReseekAndRead() throws Throwable {
    HopsWebHdfsContract.skipClientLimitation(
        "a read past the end is the namenode's Offset out of range IOException, not EOFException");
  }

  @Test
  @Override
  public void testNegativeSeek() throws Throwable {
    HopsWebHdfsContract.skipClientLimitation(
        "a negative offset fails in the client's OffsetParam with IllegalArgumentException");
  }

  @Test
  @Override
  public void testReadFullyPastEOF() throws Throwable {
    HopsWebHdfsContract.skipClientLimitation(
        "a read past the end is the namenode's Offset out of range IOException, not EOFException");
  }
}
