package io.hops.client.contract;

import io.hops.namenode.contract.HopsContract;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Open contract with the DB storage policy on the test root, through hops-client. */
public class TestDbPolicyHopsClientContractOpen extends AbstractContractOpenTest {
  @BeforeAll
  public static void createCluster() throws IOException {
    DbPolicyContract.createCluster(true);
  }

  @AfterAll
  public static void teardownCluster() throws IOException {
    HopsContract.destroyCluster();
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new DbPolicyContract(conf, true);
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
}
