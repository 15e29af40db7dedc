package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractMkdirTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Mkdir contract against a hops namenode. */
public class TestHopsContractMkdir extends AbstractContractMkdirTest {
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
  public void testNoMkdirOverFile() throws Throwable {
    HopsContract.assumeDatanodes("the file is written with a dataset");
    super.testNoMkdirOverFile();
  }

  @Test
  @Override
  public void testMkdirOverParentFile() throws Throwable {
    HopsContract.assumeDatanodes("the parent file is written with a dataset");
    super.testMkdirOverParentFile();
  }
}
