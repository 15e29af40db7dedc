package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A transaction that outlives the last storage of its store fails with a StorageException instead
 * of touching RocksDB's freed native handle (which would take the JVM down), and an in-memory store
 * reopened by name still holds its rows.
 */
class ClosedStoreTest {

  @Test
  void aTransactionAfterTheStoreClosedFailsCleanly() throws Exception {
    DalConfig config = DalConfig.embeddedInMemory("closed-" + UUID.randomUUID());
    Storage storage = Storages.open(config);
    storage.schema().createOrUpgrade();
    Transaction late = storage.begin();
    storage.close();
    assertThatThrownBy(
            () -> late.find(VariableRow.TABLE, VariableRow.TABLE.key("x"), LockMode.SHARED))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(storage::begin).isInstanceOf(StorageException.class);
  }

  @Test
  void anInMemoryStoreLivesAsLongAsTheProcess() throws Exception {
    DalConfig config = DalConfig.embeddedInMemory("reopened-" + UUID.randomUUID());
    try (Storage first = Storages.open(config)) {
      first.schema().createOrUpgrade();
      try (Transaction tx = first.begin()) {
        tx.insert(VariableRow.TABLE, new VariableRow("kept", 7, null));
        tx.commit();
      }
    }
    try (Storage second = Storages.open(config);
        Transaction tx = second.begin()) {
      assertThat(second.schema().createOrUpgrade()).isEmpty();
      assertThat(
              tx.find(VariableRow.TABLE, VariableRow.TABLE.key("kept"), LockMode.READ_COMMITTED)
                  .longValue())
          .isEqualTo(7);
    }
  }
}
