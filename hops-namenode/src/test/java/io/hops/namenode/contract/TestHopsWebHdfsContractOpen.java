package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Open contract over WebHDFS against a hops namenode with datanodes. */
public class TestHopsWebHdfsContractOpen extends AbstractContractOpenTest {
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
  public void testInputStreamReadZeroLengthRead() throws Throwable {
    HopsContract.assumeHadoopCompatibleAssertJ();
    super.testInputStreamReadZeroLengthRead();
  }

  @Test
  @Override
  public void testFloatingPointLength() throws Throwable {
    HopsContract.assumeHadoopCompatibleAssertJ();
    super.testFloatingPointLength();
  }

  @Test
  @Override
  public void testInputStreamConsistentEOF() throws Throwable {
    HopsContract.assumeHadoopCompatibleAssertJ();
    super.testInputStreamConsistentEOF();
  }

  @Test
  @Override
  public void testOpenFileApplyAsyncRead() throws Throwable {
    HopsContract.assumeHadoopCompatibleAssertJ();
    super.testOpenFileApplyAsyncRead();
  }

  /** WebHdfsFileSystem opens lazily: opening a directory succeeds, the first read fails. */
  @Test
  @Override
  public void testOpenReadDir() throws Throwable {
    readOfDirectoryFails(false);
  }

  /** As {@link #testOpenReadDir()}, for a directory with a child. */
  @Test
  @Override
  public void testOpenReadDirWithChild() throws Throwable {
    readOfDirectoryFails(true);
  }

  private void readOfDirectoryFails(boolean withChild) throws IOException {
    org.apache.hadoop.fs.Path dir = path("testOpenReadDir" + withChild);
    getFileSystem().mkdirs(dir);
    if (withChild) {
      getFileSystem().mkdirs(new org.apache.hadoop.fs.Path(dir, "child"));
    }
    try (org.apache.hadoop.fs.FSDataInputStream in = getFileSystem().open(dir)) {
      org.junit.jupiter.api.Assertions.assertThrows(java.io.FileNotFoundException.class, in::read);
    }
  }
}
