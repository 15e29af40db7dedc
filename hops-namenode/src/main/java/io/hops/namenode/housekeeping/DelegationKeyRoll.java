package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.rows.DelegationKeyRow;
import io.hops.namenode.security.DelegationTokens;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rolls the delegation token master keys every {@code dfs.namenode.delegation.key.update-interval},
 * as HDFS's AbstractDelegationTokenSecretManager.rollMasterKey does, but in the database: the
 * current key retires (it still verifies the tokens it signed for their whole lifetime), a new key
 * with the next id becomes current, and expired keys go. The round runs fenced as leader, so one
 * namenode makes keys and ids never repeat; it knows when the last roll was from the current key's
 * {@code madeCurrent}, so a new leader rolls on time.
 */
public final class DelegationKeyRoll implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(DelegationKeyRoll.class);

  private final LeaderRunner leader;
  private final DelegationTokens tokens;

  DelegationKeyRoll(LeaderRunner leader, DelegationTokens tokens) {
    this.leader = leader;
    this.tokens = tokens;
  }

  @Override
  public String name() {
    return "delegation key roll";
  }

  @Override
  public void runOnce() throws IOException {
    List<DelegationKeyRow> keys = leader.run(() -> new Roll(tokens, Time.now()));
    tokens.learn(keys);
  }

  /** One round: the keys after it (rolled, or as they were). */
  static final class Roll extends Operation<List<DelegationKeyRow>> {
    private final DelegationTokens tokens;
    private final long now;
    private List<DelegationKeyRow> rows;

    Roll(DelegationTokens tokens, long now) {
      this.tokens = tokens;
      this.now = now;
    }

    @Override
    public String name() {
      return "delegationKeyRoll";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      rows = tx.findByPartition(DelegationKeyRow.TABLE, tokens.blockPoolId(), LockMode.EXCLUSIVE);
    }

    @Override
    protected List<DelegationKeyRow> execute(ExecutePhase tx) throws IOException {
      if (rows.isEmpty()) {
        DelegationKeyRow first = tokens.firstKey(now);
        tx.insert(DelegationKeyRow.TABLE, first);
        return List.of(first);
      }
      DelegationKeyRow current =
          rows.stream().max(Comparator.comparingInt(DelegationKeyRow::keyId)).orElseThrow();
      List<DelegationKeyRow> after = new ArrayList<>();
      for (DelegationKeyRow r : rows) {
        if (r.expiryDate() < now && r != current) {
          tx.delete(DelegationKeyRow.TABLE, r);
        } else if (r != current) {
          after.add(r);
        }
      }
      long interval = tokens.updateIntervalMs();
      long lifetime = tokens.maxLifetimeMs();
      if (now - current.madeCurrent() < interval) {
        after.add(current);
        return after;
      }
      // A namenode signs with the key it read up to an interval ago: the retiring key verifies
      // for that long beyond the lifetime of the last token it signed.
      DelegationKeyRow retired =
          new DelegationKeyRow(
              current.blockPoolId(),
              current.keyId(),
              now + interval + lifetime,
              current.madeCurrent(),
              current.secret());
      tx.update(DelegationKeyRow.TABLE, retired);
      after.add(retired);
      int nextId = current.keyId() + 1;
      if (nextId <= 0) {
        nextId = DelegationTokens.FIRST_KEY_ID; // after 2^31 rolls
      }
      DelegationKeyRow made =
          new DelegationKeyRow(
              tokens.blockPoolId(), nextId, now + interval + lifetime, now, tokens.newSecret());
      tx.insert(DelegationKeyRow.TABLE, made);
      after.add(made);
      LOG.info("delegation keys rolled: current key {}", nextId);
      return after;
    }
  }
}
