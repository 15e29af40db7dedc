package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Hadoop's Rename contract against a hops namenode. */
public class TestHopsContractRename extends AbstractContractRenameTest {
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
}
