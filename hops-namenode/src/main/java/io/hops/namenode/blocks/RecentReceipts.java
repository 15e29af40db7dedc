package io.hops.namenode.blocks;

import io.hops.dal.embedded.HeapEstimate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
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
 * transaction as its owner's, which checks it against the block as stored. Bounded in bytes of heap
 * ({@link HeapEstimate}; the oldest blocks go first) and in age; a receipt the owner already
 * applied is simply applied again, to no effect.
 */
public final class RecentReceipts {
  /** A replica a datanode said it received. */
  public record Receipt(
      String datanodeUuid, DatanodeStorage storage, long genStamp, long numBytes, long at) {}

  /** A block's entry without its receipts: the map's entry, the boxed id, the list. */
  static final long BLOCK_BYTES =
      HeapEstimate.LINKED_MAP_ENTRY
          + HeapEstimate.BOXED
          + HeapEstimate.object(4 + 4 + HeapEstimate.REF)
          + HeapEstimate.align(HeapEstimate.ARRAY + 3L * HeapEstimate.REF);

  private final long maxBytes;
  private final long maxAgeMs;
  private final LinkedHashMap<Long, List<Receipt>> byBlock = new LinkedHashMap<>();
  private long bytes;

  public RecentReceipts(long maxBytes, long maxAgeMs) {
    this.maxBytes = maxBytes;
    this.maxAgeMs = maxAgeMs;
  }

  /** The heap a receipt takes: the record, its datanode's id, its storage and the storage's id. */
  static long bytes(Receipt r) {
    return HeapEstimate.object(2 * HeapEstimate.REF + 3 * 8)
        + HeapEstimate.string(r.datanodeUuid())
        + HeapEstimate.object(3 * HeapEstimate.REF)
        + HeapEstimate.string(r.storage().getStorageID());
  }

  /** Notes that {@code datanodeUuid} received a replica of {@code blockId} on {@code storage}. */
  public synchronized void received(
      String datanodeUuid, DatanodeStorage storage, long blockId, long genStamp, long numBytes) {
    List<Receipt> receipts = byBlock.get(blockId);
    if (receipts == null) {
      receipts = new ArrayList<>(3);
      byBlock.put(blockId, receipts);
      bytes += BLOCK_BYTES;
    }
    removeFrom(receipts, storage.getStorageID());
    Receipt r = new Receipt(datanodeUuid, storage, genStamp, numBytes, Time.monotonicNow());
    receipts.add(r);
    bytes += bytes(r);
    Iterator<List<Receipt>> oldest = byBlock.values().iterator();
    while (bytes > maxBytes && oldest.hasNext()) {
      List<Receipt> gone = oldest.next();
      oldest.remove();
      bytes -= BLOCK_BYTES + gone.stream().mapToLong(RecentReceipts::bytes).sum();
    }
  }

  private void removeFrom(List<Receipt> receipts, String storageId) {
    for (Iterator<Receipt> i = receipts.iterator(); i.hasNext(); ) {
      Receipt r = i.next();
      if (r.storage().getStorageID().equals(storageId)) {
        i.remove();
        bytes -= bytes(r);
      }
    }
  }

  /** Notes that a replica of {@code blockId} is gone from {@code storageId}. */
  public synchronized void deleted(long blockId, String storageId) {
    List<Receipt> receipts = byBlock.get(blockId);
    if (receipts != null) {
      removeFrom(receipts, storageId);
      if (receipts.isEmpty()) {
        byBlock.remove(blockId);
        bytes -= BLOCK_BYTES;
      }
    }
  }

  /** The recent receipts of {@code blockId}, removed from here. */
  public synchronized List<Receipt> take(long blockId) {
    List<Receipt> receipts = byBlock.remove(blockId);
    if (receipts == null) {
      return List.of();
    }
    bytes -= BLOCK_BYTES + receipts.stream().mapToLong(RecentReceipts::bytes).sum();
    long oldest = Time.monotonicNow() - maxAgeMs;
    return receipts.stream().filter(r -> r.at() >= oldest).toList();
  }

  /** Blocks with receipts kept. */
  public synchronized int size() {
    return byBlock.size();
  }

  /** The heap the receipts take, estimated. */
  public synchronized long bytes() {
    return bytes;
  }
}
