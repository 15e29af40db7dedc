package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockKeyRow;
import io.hops.namenode.security.BlockTokens;
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
 * Rolls the block access keys every {@code dfs.block.access.key.update.interval}, as HDFS's
 * BlockTokenSecretManager.updateKeys does, but in the database: the current key retires (it still
 * verifies for one more interval and a token lifetime), the next one becomes current, a new next
 * one is made with the next key id, and expired keys go. The round runs fenced as leader, so one
 * namenode makes keys and ids never repeat; it knows when the last roll was from the current key's
 * {@code madeCurrent}, so a new leader rolls on time.
 */
public final class BlockKeyRoll implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(BlockKeyRoll.class);

  private final LeaderRunner leader;
  private final BlockTokens tokens;

  BlockKeyRoll(LeaderRunner leader, BlockTokens tokens) {
    this.leader = leader;
    this.tokens = tokens;
  }

  @Override
  public String name() {
    return "block key roll";
  }

  @Override
  public void runOnce() throws IOException {
    List<BlockKeyRow> keys = leader.run(() -> new Roll(tokens, Time.now()));
    tokens.learn(keys);
  }

  /** One round: the keys after it (rolled, or as they were). */
  static final class Roll extends Operation<List<BlockKeyRow>> {
    private final BlockTokens tokens;
    private final long now;
    private List<BlockKeyRow> rows;

    Roll(BlockTokens tokens, long now) {
      this.tokens = tokens;
      this.now = now;
    }

    @Override
    public String name() {
      return "blockKeyRoll";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      rows = tx.findByPartition(BlockKeyRow.TABLE, tokens.blockPoolId(), LockMode.EXCLUSIVE);
    }

    @Override
    protected List<BlockKeyRow> execute(ExecutePhase tx) throws IOException {
      if (rows.isEmpty()) {
        List<BlockKeyRow> first = tokens.firstKeys(now);
        for (BlockKeyRow r : first) {
          tx.insert(BlockKeyRow.TABLE, r);
        }
        return first;
      }
      long interval = tokens.updateIntervalMs();
      long lifetime = tokens.lifetimeMs();
      BlockKeyRow current =
          rows.stream()
              .filter(r -> r.madeCurrent() > 0)
              .max(Comparator.comparingLong(BlockKeyRow::madeCurrent))
              .orElse(null);
      List<BlockKeyRow> after = new ArrayList<>();
      for (BlockKeyRow r : rows) {
        if (r.expiryDate() < now && r != current && r.madeCurrent() != 0) {
          tx.delete(BlockKeyRow.TABLE, r);
        } else {
          after.add(r);
        }
      }
      if (current != null && now - current.madeCurrent() < interval) {
        return after;
      }
      int nextId = rows.stream().mapToInt(BlockKeyRow::keyId).max().getAsInt() + 1;
      if (nextId <= 0) {
        nextId = BlockTokens.FIRST_KEY_ID; // after 2^31 rolls
      }
      BlockKeyRow next =
          rows.stream()
              .filter(r -> r.madeCurrent() == 0)
              .max(Comparator.comparingInt(BlockKeyRow::keyId))
              .orElse(null);
      after.clear();
      for (BlockKeyRow r : rows) {
        BlockKeyRow kept = r;
        if (r == current) {
          // Retires: tokens it signed live for a lifetime; datanodes learn its successor within an
          // interval.
          kept = withExpiry(r, now + interval + lifetime, r.madeCurrent());
          tx.update(BlockKeyRow.TABLE, kept);
        } else if (r == next) {
          kept = withExpiry(r, now + 2 * interval + lifetime, now);
          tx.update(BlockKeyRow.TABLE, kept);
        } else if (r.expiryDate() < now) {
          continue; // deleted above
        }
        after.add(kept);
      }
      BlockKeyRow made =
          new BlockKeyRow(
              tokens.blockPoolId(),
              nextId,
              now + 3 * interval + lifetime,
              next == null ? now : 0,
              tokens.newSecret());
      tx.insert(BlockKeyRow.TABLE, made);
      after.add(made);
      LOG.info(
          "block keys rolled: current key {}, next key {}",
          next == null ? nextId : next.keyId(),
          nextId);
      return after;
    }

    private static BlockKeyRow withExpiry(BlockKeyRow r, long expiry, long madeCurrent) {
      return new BlockKeyRow(r.blockPoolId(), r.keyId(), expiry, madeCurrent, r.secret());
    }
  }
}
