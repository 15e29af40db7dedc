package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Create contract against a hops namenode. */
public class TestHopsContractCreate extends AbstractContractCreateTest {
  @BeforeAll
  public static void createCluster() throws IOException {
    HopsContract.createCluster();
  }

  @AfterAll
  public static void teardownCluster() throws IOException {
    HopsContract.destroyCluster();
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HopsContract(conf);
  }

  @Test
  @Override
  public void testCreateNewFile() throws Throwable {
    HopsContract.assumeDatanodes("writes a dataset to the new file");
    super.testCreateNewFile();
  }

  @Test
  @Override
  public void testCreateFileOverExistingFileNoOverwrite() throws Throwable {
    HopsContract.assumeDatanodes("writes a dataset to the first file");
    super.testCreateFileOverExistingFileNoOverwrite();
  }

  @Test
  @Override
  public void testOverwriteExistingFile() throws Throwable {
    HopsContract.assumeDatanodes("writes a dataset, then overwrites it with another");
    super.testOverwriteExistingFile();
  }

  @Test
  @Override
  public void testOverwriteNonEmptyDirectory() throws Throwable {
    HopsContract.assumeDatanodes("writes a dataset to the child file");
    super.testOverwriteNonEmptyDirectory();
  }

  @Test
  @Override
  public void testCreatedFileIsVisibleOnFlush() throws Throwable {
    HopsContract.assumeDatanodes("writes and hflushes data");
    super.testCreatedFileIsVisibleOnFlush();
  }

  @Test
  @Override
  public void testCreatedFileIsEventuallyVisible() throws Throwable {
    HopsContract.assumeDatanodes("writes data before closing");
    super.testCreatedFileIsEventuallyVisible();
  }

  @Test
  @Override
  public void testFileStatusBlocksizeNonEmptyFile() throws Throwable {
    HopsContract.assumeDatanodes("needs a file with a block");
    super.testFileStatusBlocksizeNonEmptyFile();
  }

  @Test
  @Override
  public void testCreateFileUnderFile() throws Throwable {
    HopsContract.assumeDatanodes("the parent file is written with a dataset");
    super.testCreateFileUnderFile();
  }

  @Test
  @Override
  public void testCreateUnderFileSubdir() throws Throwable {
    HopsContract.assumeDatanodes("the parent file is written with a dataset");
    super.testCreateUnderFileSubdir();
  }

  @Test
  @Override
  public void testMkdirUnderFile() throws Throwable {
    HopsContract.assumeDatanodes("the parent file is written with a dataset");
    super.testMkdirUnderFile();
  }

  @Test
  @Override
  public void testMkdirUnderFileSubdir() throws Throwable {
    HopsContract.assumeDatanodes("the parent file is written with a dataset");
    super.testMkdirUnderFileSubdir();
  }

  @Test
  @Override
  public void testSyncable() throws Throwable {
    HopsContract.assumeDatanodes("writes, hflushes and hsyncs data");
    super.testSyncable();
  }
}
