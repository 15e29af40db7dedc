package io.hops.namenode.blocks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.util.Time;

/**
 * Replicas that datanodes reported to this namenode while another namenode owned their reports
 * (docs/architecture.md, "Wire compatibility"). Every datanode reports every replica it receives to
 * every namenode; only the owner applies it. When the owner dies, what it was sent and had not
 * applied yet is lost until the datanode's full report to the next owner, seconds later, and a
 * writer whose {@code complete} or {@code addBlock} waits for those replicas stalls meanwhile. So
 * each namenode keeps the recent receipts it did not apply, and when a writer's call finds its
 * block short of replicas it applies the receipts of that block itself, exactly as the owner would
 * (applying a replica twice changes nothing).
 *
 * <p>Nothing here is authoritative: a receipt is what a datanode said, applied through the same
 * transaction as its owner's, which checks it against the block as stored. Bounded in count and
 * age; a receipt the owner already applied is simply applied again, to no effect.
 */
public final class RecentReceipts {
  /** A replica a datanode said it received. */
  public record Receipt(
      String datanodeUuid, DatanodeStorage storage, long genStamp, long numBytes, long at) {}

  private final int maxBlocks;
  private final long maxAgeMs;
  private final Map<Long, List<Receipt>> byBlock;

  public RecentReceipts(int maxBlocks, long maxAgeMs) {
    this.maxBlocks = maxBlocks;
    this.maxAgeMs = maxAgeMs;
    this.byBlock =
        new LinkedHashMap<>() {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, List<Receipt>> eldest) {
            return size() > RecentReceipts.this.maxBlocks;
          }
        };
  }

  /** Notes that {@code datanodeUuid} received a replica of {@code blockId} on {@code storage}. */
  public synchronized void received(
      String datanodeUuid, DatanodeStorage storage, long blockId, long genStamp, long numBytes) {
    List<Receipt> receipts = byBlock.computeIfAbsent(blockId, b -> new ArrayList<>(3));
    receipts.removeIf(r -> r.storage().getStorageID().equals(storage.getStorageID()));
    receipts.add(new Receipt(datanodeUuid, storage, genStamp, numBytes, Time.monotonicNow()));
  }

  /** Notes that a replica of {@code blockId} is gone from {@code storageId}. */
  public synchronized void deleted(long blockId, String storageId) {
    List<Receipt> receipts = byBlock.get(blockId);
    if (receipts != null) {
      receipts.removeIf(r -> r.storage().getStorageID().equals(storageId));
      if (receipts.isEmpty()) {
        byBlock.remove(blockId);
      }
    }
  }

  /** The recent receipts of {@code blockId}, removed from here. */
  public synchronized List<Receipt> take(long blockId) {
    List<Receipt> receipts = byBlock.remove(blockId);
    if (receipts == null) {
      return List.of();
    }
    long oldest = Time.monotonicNow() - maxAgeMs;
    return receipts.stream().filter(r -> r.at() >= oldest).toList();
  }

  public synchronized int size() {
    return byBlock.size();
  }
}
