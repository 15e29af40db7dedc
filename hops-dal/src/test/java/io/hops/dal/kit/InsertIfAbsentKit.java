package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Transaction#insertIfAbsent}: a row absent at commit is inserted; one there already, even
 * one another transaction committed after this one saw it absent, stays as it is, and the rest of
 * the transaction commits. A plain insert of the same row fails, as before.
 */
public abstract class InsertIfAbsentKit extends DalKit {
  private static final ReplicaRow ROW = new ReplicaRow(7, 70, 3, 1);
  private static final ReplicaRow SAME_KEY = new ReplicaRow(7, 70, 3, 2);
  private static final ReplicaRow OTHER = new ReplicaRow(7, 71, 3, 1);

  @Test
  public void insertsARowThatIsAbsent() throws Exception {
    Storage s = storage();
    try (Transaction tx = s.begin()) {
      tx.insertIfAbsent(ReplicaRow.TABLE, ROW);
      tx.commit();
    }
    assertThat(replicas(s)).containsExactly(ROW);
  }

  @Test
  public void leavesARowInsertedSinceItWasSeenAbsent() throws Exception {
    Storage s = storage();
    try (Transaction tx = s.begin()) {
      assertThat(tx.find(ReplicaRow.TABLE, ReplicaRow.TABLE.keyOf(ROW), LockMode.READ_COMMITTED))
          .isNull();
      insertCommitted(s, ReplicaRow.TABLE, ROW); // another writer, meanwhile
      tx.insertIfAbsent(ReplicaRow.TABLE, SAME_KEY);
      tx.insertIfAbsent(ReplicaRow.TABLE, OTHER);
      tx.commit();
    }
    assertThat(replicas(s)).containsExactly(ROW, OTHER);
  }

  @Test
  public void aPlainInsertOfThatRowStillFails() throws Exception {
    Storage s = storage();
    insertCommitted(s, ReplicaRow.TABLE, ROW);
    try (Transaction tx = s.begin()) {
      tx.insert(ReplicaRow.TABLE, SAME_KEY);
      assertThatThrownBy(tx::commit).isInstanceOf(DuplicateKeyException.class);
    }
    assertThat(replicas(s)).containsExactly(ROW);
  }

  @Test
  public void withinOneTransactionItFollowsTheWritesBefore() throws Exception {
    Storage s = storage();
    insertCommitted(s, ReplicaRow.TABLE, ROW);
    try (Transaction tx = s.begin()) {
      tx.delete(ReplicaRow.TABLE, ROW);
      tx.insertIfAbsent(ReplicaRow.TABLE, SAME_KEY); // absent after the delete: inserted
      tx.insert(ReplicaRow.TABLE, OTHER);
      tx.insertIfAbsent(ReplicaRow.TABLE, new ReplicaRow(7, 71, 3, 9)); // there: nothing
      tx.commit();
    }
    assertThat(replicas(s)).containsExactly(SAME_KEY, OTHER);
  }

  private static List<ReplicaRow> replicas(Storage s) throws Exception {
    try (Transaction tx = s.begin()) {
      return tx.findByPartition(ReplicaRow.TABLE, 7L, LockMode.READ_COMMITTED);
    }
  }
}
