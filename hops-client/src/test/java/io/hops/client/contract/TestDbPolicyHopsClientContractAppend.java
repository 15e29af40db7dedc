package io.hops.client.contract;

import io.hops.namenode.contract.HopsContract;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Hadoop's Append contract with the DB storage policy on the test root, through hops-client. */
public class TestDbPolicyHopsClientContractAppend extends AbstractContractAppendTest {
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
}
