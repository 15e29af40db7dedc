package io.hops.namenode.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link DatanodeRetirement} on hops with 300 files: after a datanode is shut down every block
 * has 3 replicas on the others again (the bench waits for it), and after another is decommissioned
 * it is DECOMMISSIONED with every block at 3 replicas in service. The times are not asserted.
 */
class DatanodeRetirementTest {
  private static final int FILES = 300;

  @Test
  void aDeadDatanodesBlocksAreCopiedAndADecommissionedOnesToo() throws Exception {
    DatanodeRetirement.Result r = DatanodeRetirement.runHops(DatanodeRetirement.settings(), FILES);
    assertThat(r.killedHeld()).isPositive();
    assertThat(r.replicatedAfterMillis()).isGreaterThanOrEqualTo(r.deadAfterMillis());
    assertThat(r.decommissionedHeld()).isPositive();
    assertThat(r.decommissionedState()).isEqualTo(AdminStates.DECOMMISSIONED);
    assertThat(r.blocksShortAfterDecommission()).isZero();
  }
}
