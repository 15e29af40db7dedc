package io.hops.dal.embedded;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The child process of {@link EmbeddedDurabilityTest}: commits transaction after transaction on a
 * file-backed embedded store and prints {@code acked N} once commit N has returned, until killed.
 *
 * <p>Arguments: the store directory and the transaction shape ({@code single}, {@code multi}, or
 * {@code recycled}: as multi, written into a log that is the file of a flushed one written over).
 */
public final class DurabilityWriter {
  static final String COUNTER = "durability";

  private DurabilityWriter() {}

  public static void main(String[] args) throws Exception {
    String dir = args[0];
    boolean multi = !args[1].equals("single");
    Storage storage = Storages.open(DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir)));
    storage.schema().createOrUpgrade();
    if (args[1].equals("recycled")) {
      java.nio.file.Path live =
          LogRecyclingTest.writeOverAFlushedLog(
              ((EmbeddedStorage) storage).store(), java.nio.file.Path.of(dir), first -> {});
      System.out.println("live log of " + java.nio.file.Files.size(live) + " bytes");
    }
    if (multi) {
      try (Transaction tx = storage.begin()) {
        tx.insert(VariableRow.TABLE, counter(0));
        tx.commit();
      }
    }
    System.out.println("ready");
    System.out.flush();
    for (long n = 1; ; n++) {
      try (Transaction tx = storage.begin()) {
        tx.insert(InodeRow.TABLE, inode(n));
        if (multi) {
          tx.insert(BlockInfoRow.TABLE, block(n));
          tx.update(VariableRow.TABLE, counter(n));
        }
        tx.commit();
      }
      System.out.println("acked " + n);
      System.out.flush();
    }
  }

  /** The inode committed by transaction n; every column depends on n. */
  static InodeRow inode(long n) {
    return new InodeRow(
        7,
        7,
        "file-" + n,
        1000 + n,
        n % 2 == 0,
        (short) (n % 512),
        (int) n,
        (int) (n * 3),
        1_700_000_000_000L + n,
        1_700_000_000_001L + n,
        n * 4096,
        (short) (n % 7),
        n << 20,
        n % 3 == 0,
        "client-" + n,
        "host-" + n,
        false,
        n * 5,
        n % 5 == 0,
        (byte) (n % 100),
        (int) (n % 1000),
        n % 11 == 0,
        n % 4 == 0 ? null : "/target/" + n,
        false,
        0);
  }

  /** The block committed by transaction n of the multi-table shape. */
  static BlockInfoRow block(long n) {
    return new BlockInfoRow(1000 + n, 50_000 + n, 0, 0, n * 512, 1000 + n, (byte) 1, n, -1, n * 9);
  }

  /** The counter as transaction n leaves it. */
  static VariableRow counter(long n) {
    return new VariableRow(COUNTER, n, ("after " + n).getBytes(StandardCharsets.UTF_8));
  }
}
