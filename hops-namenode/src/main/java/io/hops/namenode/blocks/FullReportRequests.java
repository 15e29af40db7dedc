package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Datanodes whose replicas must be recorded again from a full block report (docs/architecture.md,
 * "The data path"): the leader forgot the replicas of a datanode it declared dead, and the
 * datanode, which may not know it was declared dead (its heartbeats were late, not lost), must
 * register again and send a full report to the owner of its reports ({@link ReportOwnership}),
 * which may be another namenode than the leader. The state lives in the database, a {@code
 * variables} row per datanode named {@link #PREFIX} and its uuid, holding a request id: the leader
 * writes it (fenced), the owner asks the datanode for a full report ({@code RegisterCommand}) when
 * it sees the row at a heartbeat, grants the report's lease, and deletes the row once it applied a
 * report made under a lease it granted after seeing that request id (not if the leader asked again
 * meanwhile).
 *
 * <p>Every namenode reads the rows at most once a second, at heartbeats (one bounded range read of
 * {@code variables} after the prefix), so a heartbeat answer itself reads nothing; the rows are few
 * (the datanodes declared dead and not yet back).
 */
public final class FullReportRequests {
  private static final Logger LOG = LoggerFactory.getLogger(FullReportRequests.class);

  /** The name of a request's {@code variables} row: this prefix and the datanode's uuid. */
  static final String PREFIX = "full_report:";

  private static final long REFRESH_MILLIS = 1000;
  private static final int PAGE = 1000;

  private final Storage storage;
  private volatile Map<String, Long> current = Map.of();
  private volatile long readAt;
  private volatile boolean read;

  FullReportRequests(Storage storage) {
    this.storage = storage;
  }

  /**
   * The fenced transaction (run with {@code Namesystem.runAsLeader}) in which the leader asks for a
   * full report of {@code datanodeUuid}: a new request id, replacing any earlier one.
   */
  public static Operation<Long> request(String datanodeUuid) {
    return new Request(datanodeUuid);
  }

  /**
   * At a heartbeat: the id of the request outstanding for {@code datanodeUuid}, or 0 if none (or if
   * the rows cannot be read now). Reads the rows at most once a second.
   */
  public long pending(String datanodeUuid) {
    long now = Time.monotonicNow();
    if (!read || now - readAt >= REFRESH_MILLIS) {
      try {
        current = readAll();
        readAt = now;
        read = true;
      } catch (StorageException e) {
        LOG.warn("cannot read the full report requests now: {}", e.toString());
      }
    }
    return current.getOrDefault(datanodeUuid, 0L);
  }

  private Map<String, Long> readAll() throws StorageException {
    Map<String, Long> out = new HashMap<>();
    Key after = VariableRow.TABLE.key(PREFIX);
    try (Transaction tx = storage.begin()) {
      while (true) {
        List<VariableRow> page =
            tx.scanFrom(VariableRow.TABLE, null, after, PAGE, LockMode.READ_COMMITTED);
        for (VariableRow r : page) {
          if (!r.name().startsWith(PREFIX)) {
            return out; // past the requests: the rows come in name order
          }
          out.put(r.name().substring(PREFIX.length()), r.longValue());
        }
        if (page.size() < PAGE) {
          return out;
        }
        after = VariableRow.TABLE.keyOf(page.get(page.size() - 1));
      }
    }
  }

  /**
   * The full report asked for by request {@code id} was applied: the request goes, unless a newer
   * one replaced it (then the owner asks again at the next heartbeat). A request that cannot be
   * deleted now stays, and is asked for again after the expiry interval: the report is applied
   * either way, so the datanode is not made to send it again at once.
   */
  public void done(String datanodeUuid, long id) {
    Key key = VariableRow.TABLE.key(PREFIX + datanodeUuid);
    try (Transaction tx = storage.begin()) {
      VariableRow row = tx.find(VariableRow.TABLE, key, LockMode.EXCLUSIVE);
      if (row != null && row.longValue() == id) {
        tx.delete(VariableRow.TABLE, key);
        tx.commit();
        LOG.info(
            "full report of datanode {} applied: its replicas are recorded again", datanodeUuid);
      }
    } catch (StorageException e) {
      LOG.warn(
          "full report of datanode {} applied, its request kept: {}", datanodeUuid, e.toString());
      return;
    }
    Map<String, Long> next = new HashMap<>(current);
    next.remove(datanodeUuid, id);
    current = next;
  }

  /** Writes a new request id for a datanode (B + W: one row by its key). */
  private static final class Request extends Operation<Long> {
    private final String datanodeUuid;
    private VariableRow old;

    Request(String datanodeUuid) {
      this.datanodeUuid = datanodeUuid;
    }

    @Override
    public String name() {
      return "requestFullReport";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      old =
          tx.find(
              VariableRow.TABLE, VariableRow.TABLE.key(PREFIX + datanodeUuid), LockMode.EXCLUSIVE);
    }

    @Override
    protected Long execute(ExecutePhase tx) throws IOException {
      long id = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
      VariableRow row = new VariableRow(PREFIX + datanodeUuid, id, null);
      if (old == null) {
        tx.insert(VariableRow.TABLE, row);
      } else {
        tx.update(VariableRow.TABLE, row);
      }
      return id;
    }
  }
}
