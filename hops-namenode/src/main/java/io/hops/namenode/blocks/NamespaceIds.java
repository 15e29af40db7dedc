package io.hops.namenode.blocks;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.util.VersionInfo;

/**
 * The namespace's identity: namespace id, cluster id, block pool id and creation time. Made once,
 * by the first namenode, and kept in the {@code variables} table, so that every namenode reports
 * the same ones to datanodes (which refuse a namenode of another namespace).
 */
public record NamespaceIds(int namespaceId, String clusterId, String blockPoolId, long cTime) {
  private static final String ROW = "namespace_ids";

  /** Reads the ids, making them if the store has none yet (safe to race). */
  public static NamespaceIds loadOrCreate(Storage storage) throws StorageException {
    NamespaceIds found = read(storage);
    if (found != null) {
      return found;
    }
    int nsId = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
    long now = System.currentTimeMillis();
    NamespaceIds made =
        new NamespaceIds(nsId, "CID-" + UUID.randomUUID(), "BP-" + nsId + "-127.0.0.1-" + now, 0);
    try (Transaction tx = storage.begin()) {
      tx.insert(VariableRow.TABLE, new VariableRow(ROW, made.namespaceId, made.encode()));
      tx.commit();
      return made;
    } catch (DuplicateKeyException e) {
      return read(storage); // another namenode made them first
    }
  }

  private static NamespaceIds read(Storage storage) throws StorageException {
    try (Transaction tx = storage.begin()) {
      VariableRow row =
          tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.READ_COMMITTED);
      if (row == null) {
        return null;
      }
      String[] parts = new String(row.bytesValue(), StandardCharsets.UTF_8).split("\n", -1);
      return new NamespaceIds((int) row.longValue(), parts[0], parts[1], Long.parseLong(parts[2]));
    }
  }

  private byte[] encode() {
    return (clusterId + "\n" + blockPoolId + "\n" + cTime).getBytes(StandardCharsets.UTF_8);
  }

  /** What {@code versionRequest} answers: these ids and this software's version. */
  public NamespaceInfo namespaceInfo() {
    return new NamespaceInfo(
        namespaceId,
        clusterId,
        blockPoolId,
        cTime,
        VersionInfo.getRevision(),
        VersionInfo.getVersion());
  }
}
