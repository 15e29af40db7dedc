package io.hops.namenode.blocks;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.server.protocol.BalancerBandwidthCommand;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The balancer bandwidth an operator sets ({@code dfsadmin -setBalancerBandwidth}), passed to the
 * datanodes as a {@link BalancerBandwidthCommand} in a heartbeat answer, as HDFS's {@code
 * DatanodeManager} passes it. Any namenode may take the command, so the value lives in the
 * database: a {@code variables} row holding the bandwidth and a generation that every setting
 * counts up (setting the same value again reaches the datanodes again, as in HDFS).
 *
 * <p>Every namenode reads the row at most once a second, at heartbeats. A datanode obeys only the
 * leader's commands, so only the leader hands out the value, once per generation to each datanode.
 * A datanode gets the settings made after this namenode first heard from it, as HDFS passes one to
 * the datanodes registered when it is made. Which generation a datanode got is a hint in memory: a
 * namenode that becomes leader passes the newest setting made while it was not leader once more
 * (the datanode sets the same bandwidth again).
 */
public final class BalancerBandwidth {
  private static final Logger LOG = LoggerFactory.getLogger(BalancerBandwidth.class);

  /** The {@code variables} row: the bandwidth in bytes per second, the generation in its bytes. */
  static final String ROW = "balancer_bandwidth";

  private static final long REFRESH_MILLIS = 1000;

  /** A setting as stored; generation 0 is "never set". */
  record Setting(long bandwidth, long generation) {
    static final Setting NONE = new Setting(0, 0);
  }

  private final Storage storage;

  /** By datanode uuid, the generation it got (or that was current when this namenode met it). */
  private final Map<String, Long> passed = new ConcurrentHashMap<>();

  private volatile Setting current;
  private volatile long readAt;

  public BalancerBandwidth(Storage storage) {
    this.storage = storage;
  }

  /** Stores a new setting for every namenode to pass on; HDFS's checks are the caller's. */
  public static void set(Storage storage, long bandwidth) throws StorageException {
    for (int attempt = 0; ; attempt++) {
      try (Transaction tx = storage.begin()) {
        VariableRow old =
            tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.EXCLUSIVE);
        long generation = old == null ? 1 : decode(old).generation() + 1;
        VariableRow row =
            new VariableRow(ROW, bandwidth, ByteBuffer.allocate(8).putLong(generation).array());
        if (old == null) {
          tx.insert(VariableRow.TABLE, row);
        } else {
          tx.update(VariableRow.TABLE, row);
        }
        tx.commit();
        LOG.info("balancer bandwidth set to {} bytes/s (generation {})", bandwidth, generation);
        return;
      } catch (DuplicateKeyException e) {
        if (attempt > 0) {
          throw e; // two namenodes raced to create the row; the second attempt updates it
        }
      }
    }
  }

  private static Setting decode(VariableRow row) {
    byte[] b = row.bytesValue();
    long generation = b != null && b.length == 8 ? ByteBuffer.wrap(b).getLong() : 0;
    return new Setting(row.longValue(), generation);
  }

  /**
   * At a heartbeat of {@code datanodeUuid}: the command to pass the newest setting if this namenode
   * is the {@code leader} and the datanode has not had it, else null.
   */
  public BalancerBandwidthCommand commandFor(String datanodeUuid, boolean leader) {
    Setting now = setting();
    if (now == null) {
      return null; // the store cannot be read now: the next heartbeat tries again
    }
    Long had = passed.putIfAbsent(datanodeUuid, now.generation());
    if (had == null || had >= now.generation() || !leader) {
      return null;
    }
    passed.put(datanodeUuid, now.generation());
    // HDFS passes only a positive bandwidth; the datanode ignores any other.
    return now.bandwidth() > 0 ? new BalancerBandwidthCommand(now.bandwidth()) : null;
  }

  private Setting setting() {
    long now = Time.monotonicNow();
    Setting s = current;
    if (s != null && now - readAt < REFRESH_MILLIS) {
      return s;
    }
    try (Transaction tx = storage.begin()) {
      VariableRow row =
          tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.READ_COMMITTED);
      tx.commit();
      s = row == null ? Setting.NONE : decode(row);
    } catch (StorageException e) {
      LOG.warn("cannot read the balancer bandwidth now: {}", e.toString());
      return s;
    }
    current = s;
    readAt = now;
    return s;
  }
}
