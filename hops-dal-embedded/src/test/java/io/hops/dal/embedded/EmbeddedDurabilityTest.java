package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A commit the embedded engine acknowledged survives a kill -9 of the process: a child JVM commits
 * in a loop and prints each acknowledgement, is killed with SIGKILL mid-stream, and every
 * acknowledged transaction is found afterwards, whole and exact. (Each commit is also fsynced to
 * the write-ahead log before it is acknowledged, which is what carries it over a power loss; a test
 * cannot pull the plug, see README.md, Durability.)
 */
@Timeout(300)
class EmbeddedDurabilityTest {
  private static final int MIN_ACKS = 200;
  private static final int ROUNDS = 3;

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"single", "multi", "recycled"})
  void everyAcknowledgedCommitSurvivesKill9(String shape) throws Exception {
    for (int round = 1; round <= ROUNDS; round++) {
      Path dir = tmp.resolve(shape + "-" + round);
      long acked = commitUntilKilled(dir, shape);
      try (Storage storage = open(dir);
          Transaction tx = storage.begin()) {
        List<InodeRow> inodes =
            tx.scanAll(InodeRow.TABLE, LockMode.READ_COMMITTED).stream()
                .sorted(Comparator.comparingLong(InodeRow::id))
                .toList();
        System.out.printf(
            "%s round %d: %d commits acknowledged, %d found after kill -9%n",
            shape, round, acked, inodes.size());
        // The commit in flight at the kill may or may not have landed; nothing else may differ.
        assertThat(inodes.size()).isBetween((int) acked, (int) acked + 1);
        for (int i = 0; i < inodes.size(); i++) {
          assertThat(inodes.get(i)).isEqualTo(DurabilityWriter.inode(i + 1L));
        }
        if (!shape.equals("single")) {
          assertWholeTransactions(tx, inodes.size());
        }
      }
    }
  }

  /** The other tables of the multi-table shape hold exactly the same transactions. */
  private static void assertWholeTransactions(Transaction tx, int committed) throws Exception {
    List<BlockInfoRow> blocks = tx.scanAll(BlockInfoRow.TABLE, LockMode.READ_COMMITTED);
    assertThat(blocks).hasSize(committed);
    for (int i = 0; i < committed; i++) {
      assertThat(blocks.get(i)).isEqualTo(DurabilityWriter.block(i + 1L));
    }
    VariableRow counter =
        tx.find(
            VariableRow.TABLE,
            VariableRow.TABLE.key(DurabilityWriter.COUNTER),
            LockMode.READ_COMMITTED);
    VariableRow expected = DurabilityWriter.counter(committed);
    assertThat(counter.longValue()).isEqualTo(expected.longValue());
    assertThat(counter.bytesValue()).isEqualTo(expected.bytesValue());
  }

  /** Runs the writer until it acknowledged at least {@link #MIN_ACKS}; returns its last ack. */
  private long commitUntilKilled(Path dir, String shape) throws Exception {
    try (ChildJvm child = ChildJvm.start(tmp, DurabilityWriter.class, dir.toString(), shape)) {
      child.awaitLine(l -> l.equals("acked " + MIN_ACKS), 120_000);
      if (shape.equals("recycled")) {
        // The commits went into the file of an earlier log, longer than what they wrote.
        String live =
            child.lines().stream()
                .filter(l -> l.startsWith("live log of "))
                .findFirst()
                .orElseThrow();
        long size = Long.parseLong(live.replaceAll("\\D", ""));
        assertThat(size).isGreaterThan(LogRecyclingTest.BIG);
      }
      // Land the kill at a random point of a commit.
      Thread.sleep(ThreadLocalRandom.current().nextInt(0, 40));
      long pid = child.pid();
      int status = child.kill();
      assertThat(status).as("exit status of SIGKILL").isEqualTo(128 + 9);
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
      List<String> acks = child.lines().stream().filter(l -> l.startsWith("acked ")).toList();
      long last = Long.parseLong(acks.get(acks.size() - 1).substring("acked ".length()));
      assertThat(acks).hasSize((int) last);
      return last;
    }
  }

  private static Storage open(Path dir) throws Exception {
    return Storages.open(DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString())));
  }
}
