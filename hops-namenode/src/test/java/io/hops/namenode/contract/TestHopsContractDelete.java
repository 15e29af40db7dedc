package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Delete contract against a hops namenode. */
public class TestHopsContractDelete extends AbstractContractDeleteTest {
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
  public void testDeleteNonEmptyDirNonRecursive() throws Throwable {
    HopsContract.assumeDatanodes("the child file is written with a dataset");
    super.testDeleteNonEmptyDirNonRecursive();
  }

  @Test
  @Override
  public void testDeleteNonEmptyDirRecursive() throws Throwable {
    HopsContract.assumeDatanodes("the child file is written with a dataset");
    super.testDeleteNonEmptyDirRecursive();
  }

  @Test
  @Override
  public void testDeleteSingleFile() throws Throwable {
    HopsContract.assumeDatanodes("the file is written with a dataset");
    super.testDeleteSingleFile();
  }
}
