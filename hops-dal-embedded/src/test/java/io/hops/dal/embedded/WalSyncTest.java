package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The group sync over a file store: a commit's rows are visible and its locks free at once, but it
 * is durable (and a blocking commit returns) only after the log sync that follows it; a failed sync
 * fails the waiting commits and every later one.
 */
class WalSyncTest {
  private Path dir;

  @AfterEach
  void clear() {
    WalSyncFaults.clear();
  }

  private Storage open() throws Exception {
    dir = Files.createTempDirectory("walsync");
    Storage s = Storages.open(DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString())));
    s.schema().createOrUpgrade();
    return s;
  }

  static CompletableFuture<Void> insertDeferred(Storage s, String name) throws StorageException {
    try (Transaction tx = s.begin()) {
      tx.insert(VariableRow.TABLE, new VariableRow(name, 1, null));
      return tx.commitDeferred().toCompletableFuture();
    }
  }

  @Test
  void aCommitIsDurableOnlyAfterTheSyncThatFollowsIt() throws Exception {
    try (Storage s = open()) {
      String store = dir.toAbsolutePath().normalize().toString();
      CountDownLatch held = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      WalSyncFaults.inject(
          name -> {
            if (name.equals(store)) {
              held.countDown();
              release.await();
            }
          });
      CompletableFuture<Void> first = insertDeferred(s, "first");
      assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
      CompletableFuture<Void> second = insertDeferred(s, "second");
      CompletableFuture<Void> blocking =
          CompletableFuture.runAsync(
              () -> {
                try (Transaction tx = s.begin()) {
                  tx.insert(VariableRow.TABLE, new VariableRow("third", 3, null));
                  tx.commit();
                } catch (StorageException e) {
                  throw new RuntimeException(e);
                }
              });
      Thread.sleep(300);
      assertThat(first).isNotDone();
      assertThat(second).isNotDone();
      assertThat(blocking).isNotDone();
      try (Transaction tx = s.begin()) {
        // Visible and unlocked meanwhile.
        assertThat(tx.find(VariableRow.TABLE, VariableRow.TABLE.key("second"), LockMode.EXCLUSIVE))
            .isNotNull();
        tx.commit();
      }
      release.countDown();
      CompletableFuture.allOf(first, second, blocking).get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aFailedSyncFailsTheWaitingCommitsAndEveryLaterOne() throws Exception {
    try (Storage s = open()) {
      WalSyncFaults.inject(
          name -> {
            throw new IOException("injected fsync failure");
          });
      CompletableFuture<Void> lost = insertDeferred(s, "lost");
      assertThatThrownBy(() -> lost.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(StorageException.class)
          .hasMessageContaining("injected fsync failure");
      WalSyncFaults.clear();
      assertThatThrownBy(() -> insertDeferred(s, "later"))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("failed to sync");
      try (Transaction tx = s.begin()) {
        tx.insert(VariableRow.TABLE, new VariableRow("later", 1, null));
        assertThatThrownBy(tx::commit).isInstanceOf(StorageException.class);
      }
    }
  }
}
