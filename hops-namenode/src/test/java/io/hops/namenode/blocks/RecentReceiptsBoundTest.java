package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.junit.jupiter.api.Test;

/**
 * The replica receipts a namenode keeps stay under their bound in bytes while far more blocks are
 * received than they hold; the blocks kept are the most recent, and their receipts are those an
 * unbounded keeper gives for the same reports.
 */
class RecentReceiptsBoundTest {
  private static final long BOUND = 256 << 10;

  @Test
  void receiptsStayUnderTheirBoundAndKeepTheRecentBlocksExactly() {
    RecentReceipts bounded = new RecentReceipts(BOUND, 60_000);
    RecentReceipts unbounded = new RecentReceipts(Long.MAX_VALUE, 60_000);
    String[] datanodes = new String[6];
    DatanodeStorage[] storages = new DatanodeStorage[6];
    for (int d = 0; d < 6; d++) {
      datanodes[d] = UUID.randomUUID().toString();
      storages[d] = new DatanodeStorage("DS-" + UUID.randomUUID());
    }
    Random random = new Random(59);
    long most = 0;
    int blocks = 20_000;
    for (long b = 0; b < blocks; b++) {
      for (int r = 0; r < 3; r++) {
        int d = (int) ((b + 2 * r) % 6);
        for (RecentReceipts keeper : List.of(bounded, unbounded)) {
          keeper.received(datanodes[d], storages[d], b, 1001 + b, 128 << 20);
        }
      }
      if (random.nextInt(10) == 0) { // a replica deleted again
        int d = (int) (b % 6);
        bounded.deleted(b, storages[d].getStorageID());
        unbounded.deleted(b, storages[d].getStorageID());
      }
      most = Math.max(most, bounded.bytes());
    }
    assertThat(most).isPositive().isLessThanOrEqualTo(BOUND);
    assertThat(bounded.size()).isLessThan(blocks).isGreaterThan(100);
    assertThat(unbounded.size()).isEqualTo(blocks);
    // The most recent blocks are kept, with exactly the receipts an unbounded keeper has.
    int kept = bounded.size();
    for (long b = blocks - 1; b >= blocks - kept; b--) {
      assertThat(seen(bounded.take(b)))
          .as("receipts of block %d", b)
          .isEqualTo(seen(unbounded.take(b)));
    }
    assertThat(bounded.take(0)).isEmpty();
    assertThat(bounded.size()).isZero();
    assertThat(bounded.bytes()).isZero();
  }

  /** What a receipt says, without the moment this keeper noted it. */
  private static List<String> seen(List<RecentReceipts.Receipt> receipts) {
    return receipts.stream()
        .map(
            r ->
                r.datanodeUuid()
                    + " "
                    + r.storage().getStorageID()
                    + " "
                    + r.genStamp()
                    + " "
                    + r.numBytes())
        .toList();
  }
}
