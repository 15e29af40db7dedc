package io.hops.dal.embedded;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures commits per second with fsync on a file store at 1 and 16 committing threads: if
 * concurrent committers share an fsync (group commit), 16 threads commit many times more than one.
 * Run: {@code java -cp <test classpath> io.hops.dal.embedded.GroupCommitProbe [seconds]}.
 */
public final class GroupCommitProbe {
  private GroupCommitProbe() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    for (boolean fsync : new boolean[] {true, false}) {
      for (int threads : new int[] {1, 16}) {
        System.out.printf(
            "fsync=%s threads=%2d: %,.0f commits/s%n",
            fsync, threads, run(fsync, threads, seconds));
      }
    }
  }

  private static double run(boolean fsync, int threads, int seconds) throws Exception {
    DalConfig config =
        DalConfig.of(
                Map.of(
                    HopsConfig.EMBEDDED_DIR, Files.createTempDirectory("group-commit").toString()))
            .with(HopsConfig.EMBEDDED_FSYNC_ON_COMMIT, fsync);
    try (Storage storage = Storages.open(config)) {
      storage.schema().createOrUpgrade();
      AtomicLong commits = new AtomicLong();
      long end = System.nanoTime() + seconds * 1_000_000_000L;
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String name = "counter-" + t;
        Thread w =
            new Thread(
                () -> {
                  for (long n = 0; System.nanoTime() < end; n++) {
                    try (Transaction tx = storage.begin()) {
                      if (n == 0) {
                        tx.insert(VariableRow.TABLE, new VariableRow(name, n, null));
                      } else {
                        tx.update(VariableRow.TABLE, new VariableRow(name, n, null));
                      }
                      tx.commit();
                      commits.incrementAndGet();
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                  }
                });
        workers.add(w);
        w.start();
      }
      for (Thread w : workers) {
        w.join();
      }
      return commits.get() / (double) seconds;
    }
  }
}
