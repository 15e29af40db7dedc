package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.RetryCacheRow;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A partition-pruned scan is one prefix iteration: it returns exactly its partition, in primary-key
 * order, when the neighbouring partitions are adjacent numbers, extreme numbers, or byte strings
 * that extend the scanned one.
 */
class PartitionScanTest {
  private Storage storage;

  @BeforeEach
  void open() throws Exception {
    storage = Storages.open(DalConfig.embeddedInMemory("partition-" + UUID.randomUUID()));
    storage.schema().createOrUpgrade();
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void aNumericPartitionEndsExactlyAtItsNeighbours() throws Exception {
    long[] partitions = {Long.MIN_VALUE, -2, -1, 0, 1, 2, 255, 256, Long.MAX_VALUE};
    List<InodeRow> all = new ArrayList<>();
    int seed = 0;
    for (long p : partitions) {
      // Names that sort differently as bytes and as Java strings, and an empty one; "\u0080" is
      // UTF-8 C2 80, whose 0x80 is stored as 0x00 (escaped) once the sign bits are flipped.
      for (String name : List.of("", "b", "a", "a\0", "é", "z", "\u0080")) {
        InodeRow row = SampleRows.typical(InodeRow.TABLE, ++seed);
        row = SampleRows.inPartition(InodeRow.TABLE, row, p);
        row = SampleRows.with(InodeRow.TABLE, row, "parent_id", 5L);
        all.add(SampleRows.with(InodeRow.TABLE, row, "name", name));
      }
    }
    insert(all);
    try (Transaction tx = storage.begin()) {
      for (long p : partitions) {
        List<InodeRow> found = tx.findByPartition(InodeRow.TABLE, p, LockMode.READ_COMMITTED);
        assertThat(found).extracting(InodeRow::partitionId).containsOnly(p);
        assertThat(found)
            .extracting(InodeRow::name)
            .as("partition %d in key order, names as HDFS orders them (signed bytes)", p)
            .containsExactly("", "\u0080", "é", "a", "a\0", "b", "z");
      }
      assertThat(tx.findByPartition(InodeRow.TABLE, 3L, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(InodeRow.TABLE, LockMode.READ_COMMITTED)).hasSize(all.size());
    }
  }

  @Test
  void aByteStringPartitionDoesNotIncludeLongerPartitionsItIsAPrefixOf() throws Exception {
    byte[][] clients = {{}, {1}, {1, 0}, {1, 0, 0}, {1, 1}, {2}};
    List<RetryCacheRow> all = new ArrayList<>();
    int seed = 0;
    for (byte[] client : clients) {
      for (int call = -1; call <= 1; call++) {
        RetryCacheRow row = SampleRows.typical(RetryCacheRow.TABLE, ++seed);
        row = SampleRows.with(RetryCacheRow.TABLE, row, "client_id", client);
        all.add(SampleRows.with(RetryCacheRow.TABLE, row, "call_id", call));
      }
    }
    insert(all);
    try (Transaction tx = storage.begin()) {
      for (byte[] client : clients) {
        List<RetryCacheRow> found =
            tx.findByPartition(RetryCacheRow.TABLE, client, LockMode.SHARED);
        assertThat(found).allSatisfy(r -> assertThat(r.clientId()).isEqualTo(client));
        assertThat(found).extracting(RetryCacheRow::callId).containsExactly(-1, 0, 1);
      }
    }
  }

  private <R extends Record> void insert(List<R> rows) throws Exception {
    try (Transaction tx = storage.begin()) {
      for (R r : rows) {
        @SuppressWarnings("unchecked")
        io.hops.dal.schema.Table<R> t = (io.hops.dal.schema.Table<R>) tableOf(r);
        tx.insert(t, r);
      }
      tx.commit();
    }
  }

  private static io.hops.dal.schema.Table<?> tableOf(Record r) {
    return r instanceof InodeRow ? InodeRow.TABLE : RetryCacheRow.TABLE;
  }
}
