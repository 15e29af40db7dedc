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
import io.hops.dal.schema.Key;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One process owns a file-backed embedded store: another process is refused at once with a clear
 * message, and gets in once the owner is gone, even by kill -9. Inside the owning process, any
 * number of storages share the store and its row locks.
 */
@Timeout(120)
class EmbeddedSingleProcessTest {
  @TempDir Path tmp;

  @Test
  void secondProcessIsRefusedUntilTheOwnerDies() throws Exception {
    Path dir = tmp.resolve("store");
    try (ChildJvm owner = ChildJvm.start(tmp, StoreHolder.class, dir.toString())) {
      owner.awaitLine(l -> l.startsWith("open"), 60_000);

      long start = System.nanoTime();
      assertThatThrownBy(() -> open(dir).close())
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("in use by another process");
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);

      assertThat(owner.kill()).isEqualTo(128 + 9);
    }
    try (Storage storage = open(dir)) {
      assertThat(storage.schema().createOrUpgrade()).isEmpty();
    }
  }

  @Test
  void storagesInOneProcessShareTheStoreAndItsRowLocks() throws Exception {
    Path dir = tmp.resolve("shared");
    try (Storage first = open(dir);
        Storage second = open(dir)) {
      first.schema().createOrUpgrade();
      Key key = VariableRow.TABLE.key("shared");
      try (Transaction tx = first.begin()) {
        tx.insert(VariableRow.TABLE, new VariableRow("shared", 1, null));
        tx.commit();
      }

      try (Transaction holder = first.begin()) {
        holder.find(VariableRow.TABLE, key, LockMode.EXCLUSIVE);
        CompletableFuture<Long> waiter =
            CompletableFuture.supplyAsync(() -> lockedRead(second, key));
        Thread.sleep(500);
        assertThat(waiter).as("blocked by the other storage's lock").isNotDone();

        holder.update(VariableRow.TABLE, new VariableRow("shared", 2, null));
        holder.commit();
        assertThat(waiter.get(10, TimeUnit.SECONDS))
            .as("sees the commit it waited for")
            .isEqualTo(2);
      }
    }
  }

  @Test
  void aDirectoryHoldingAnOldH2StoreIsRefusedWithWhatToDo() throws Exception {
    Path dir = tmp.resolve("old-h2");
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Files.write(dir.resolve("hops.mv.db"), new byte[] {'H', '2'});
    assertThatThrownBy(() -> open(dir).close())
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("H2")
        .hasMessageContaining("bin/hops format");
    assertThat(dir.resolve("CURRENT")).as("nothing of RocksDB written there").doesNotExist();
  }

  private static long lockedRead(Storage storage, Key key) {
    try (Transaction tx = storage.begin()) {
      long value = tx.find(VariableRow.TABLE, key, LockMode.EXCLUSIVE).longValue();
      tx.commit();
      return value;
    } catch (StorageException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Storage open(Path dir) throws StorageException {
    return Storages.open(DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString())));
  }
}
