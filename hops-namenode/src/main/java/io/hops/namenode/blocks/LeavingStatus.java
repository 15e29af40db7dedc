package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the leader's admin monitor found on its last whole walk of a datanode being decommissioned
 * or entering maintenance (HDFS's {@code LeavingServiceStatus}, shown in {@code /jmx} {@code
 * DecomNodes} and {@code EnteringMaintenanceNodes}): its blocks without enough replicas elsewhere,
 * those of them whose only replicas are out of service, and those in files being written; and when
 * the monitor first walked it. Kept in the {@code variables} row {@value #PREFIX}{@code <uuid>}
 * (start time as the value, the three counts as bytes), so every namenode shows the same.
 */
public record LeavingStatus(
    long startMillis, int underReplicated, int outOfServiceOnly, int underReplicatedInOpenFiles) {
  static final String PREFIX = "leaving:";

  public static Key key(String uuid) {
    return VariableRow.TABLE.key(PREFIX + uuid);
  }

  public VariableRow toRow(String uuid) {
    byte[] counts =
        ByteBuffer.allocate(12)
            .putInt(underReplicated)
            .putInt(outOfServiceOnly)
            .putInt(underReplicatedInOpenFiles)
            .array();
    return new VariableRow(PREFIX + uuid, startMillis, counts);
  }

  public static LeavingStatus of(VariableRow row) {
    ByteBuffer b = ByteBuffer.wrap(row.bytesValue());
    return new LeavingStatus(row.longValue(), b.getInt(), b.getInt(), b.getInt());
  }

  /** The stored status of each of these datanodes that has one: one batched read. */
  public static Map<String, LeavingStatus> read(Storage storage, List<String> uuids)
      throws StorageException {
    Map<String, LeavingStatus> out = new HashMap<>();
    if (uuids.isEmpty()) {
      return out;
    }
    try (Transaction tx = storage.begin()) {
      List<Key> keys = uuids.stream().map(LeavingStatus::key).toList();
      List<VariableRow> rows = tx.findBatch(VariableRow.TABLE, keys, LockMode.READ_COMMITTED);
      for (int i = 0; i < uuids.size(); i++) {
        VariableRow row = rows.get(i);
        if (row != null && row.bytesValue() != null && row.bytesValue().length == 12) {
          out.put(uuids.get(i), of(row));
        }
      }
    }
    return out;
  }
}
