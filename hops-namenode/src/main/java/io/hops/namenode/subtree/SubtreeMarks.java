package io.hops.namenode.subtree;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.VariableRow;
import io.hops.election.LeaderElection;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.ops.snapshot.SnapshotIds;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.resolve.SubtreeMarkedException;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The marks of subtree operations (docs/architecture.md, "Subtree operations", phase 1 and 4): a
 * mark is the root inode's {@code subtree_locked} flag with the owner's namenode id, and a row of
 * {@code on_going_subtree_ops} with the root's path. Setting one is serialized by an exclusive lock
 * on one {@code variables} row, so two operations on an ancestor and a descendant cannot both see
 * the table without the other and mark at once. A mark's owner is the marking process's incarnation
 * ({@link LeaderElection#incarnation}), not its election id: a namenode whose round overran its
 * deadline joins again under a new id, its old id is declared dead, and yet its operations run on.
 * A mark whose incarnation is not among the live namenodes' is stale: whoever meets it clears it.
 * Every batch transaction under a mark checks that it is still its own ({@link
 * io.hops.namenode.tx.OwnMark}), so one that was cleared all the same stops its operation.
 */
public final class SubtreeMarks implements TransactionRunner.StaleMarks {
  private static final Logger LOG = LoggerFactory.getLogger(SubtreeMarks.class);

  /** Every row of {@code on_going_subtree_ops} is in this partition. */
  static final int PARTITION = 0;

  /** The row whose exclusive lock serializes the setting of marks. */
  static final String SERIALIZER = "subtree_ops";

  /** What a subtree operation is, in {@code on_going_subtree_ops.op_type}. */
  static final byte DELETE = 1;

  static final byte RENAME = 2;

  static final byte QUOTA = 3;

  private final Storage storage;
  private final TransactionRunner runner;
  private final Supplier<LeaderElection> election;
  private final Faults faults;
  private volatile boolean serializerExists;

  /** Owners of marks met, by when this namenode first saw them out of the membership. */
  private final Map<Long, Long> absentSince = new ConcurrentHashMap<>();

  /**
   * Marks in {@code storage} through {@code runner}; {@code election} is the namenode's membership,
   * null until it joined.
   */
  public SubtreeMarks(
      Storage storage, TransactionRunner runner, Supplier<LeaderElection> election, Faults faults) {
    this.storage = storage;
    this.runner = runner;
    this.election = election;
    this.faults = faults;
  }

  /** This namenode process's incarnation, which its marks carry. */
  long myId() throws IOException {
    LeaderElection e = election.get();
    long id = e == null ? -1 : e.incarnation();
    if (id < 0) {
      throw new RetriableException("this namenode has not joined the namenode membership yet");
    }
    return id;
  }

  /**
   * Whether the namenode process of incarnation {@code owner} is dead: no live namenode of this
   * namenode's view of the membership had it for two election periods in a row. (A namenode that
   * just joined is absent from a view taken before it joined; it shows up within a period, so it is
   * not taken for dead; one that joined again under a new id keeps its incarnation.) With the
   * default period of one second, a dead namenode's marks are cleared about four seconds after it
   * died: two missed heartbeats to leave the membership, two periods of absence here.
   */
  public boolean isDead(long owner) {
    LeaderElection e = election.get();
    if (e == null || e.incarnation() < 0 || owner == e.incarnation()) {
      return false;
    }
    java.util.Set<Long> live = e.liveIncarnations();
    if (live.isEmpty() || live.contains(owner)) {
      absentSince.remove(owner);
      return false;
    }
    long now = System.nanoTime();
    long since = e.goneSince(owner).orElseGet(() -> absentSince.computeIfAbsent(owner, k -> now));
    return now - since >= TimeUnit.MILLISECONDS.toNanos(2 * e.periodMillis());
  }

  @Override
  public boolean clearIfStale(SubtreeMarkedException e) throws IOException {
    if (!isDead(e.owner())) {
      return false;
    }
    clear(e.inodeId(), e.owner());
    return true;
  }

  /** Clears the mark of {@code owner} on inode {@code inodeId} and its record, if still there. */
  void clear(long inodeId, long owner) throws IOException {
    boolean cleared = runner.run(() -> new Clear(inodeId, owner));
    if (cleared) {
      LOG.info("cleared the subtree mark of dead namenode {} on inode {}", owner, inodeId);
    }
  }

  /**
   * Removes this namenode's own mark after its subtree operation failed or gave up. False if it
   * could not (the transaction failed, e.g. timed out under contention): the mark is then still
   * there, and nobody else clears it while this namenode lives, so the caller must try again.
   */
  boolean unmark(InodeRow root) {
    try {
      faults.at(Faults.Point.SUBTREE_UNMARK);
      runner.run(() -> new Clear(root.id(), root.subtreeLockOwner()));
      return true;
    } catch (IOException e) {
      LOG.warn("could not clear the subtree mark on {} ({})", root.name(), root.id(), e);
      return false;
    }
  }

  /** Checks what the caller must before marking: the path's state and its permissions. */
  @FunctionalInterface
  interface Precheck {
    /** Whether to mark the target of {@code p} (false: the plain operation handles it now). */
    boolean check(ResolvedPath p) throws IOException;
  }

  /**
   * Phase 1: marks the target of {@code path} for an operation of type {@code op}, or returns null
   * if {@code precheck} says not to. A live operation on an ancestor or a descendant makes this
   * back off and retry (a {@link SubtreeMarkedException}); the runner clears a dead one's.
   */
  InodeRow mark(String path, byte op, String user, Precheck precheck) throws IOException {
    ensureSerializer();
    long me = myId();
    return runner.run(() -> new Mark(path, op, user, me, precheck, faults));
  }

  private void ensureSerializer() throws StorageException {
    if (serializerExists) {
      return;
    }
    ensureRow(new VariableRow(SERIALIZER, 0, null));
    // A mark locks the snapshot counter shared: the row must exist for the lock to serialize it
    // with a creation (a locking read of an absent row may lock nothing).
    ensureRow(SnapshotIds.first());
    serializerExists = true;
  }

  private void ensureRow(VariableRow row) throws StorageException {
    try (Transaction tx = storage.begin()) {
      if (tx.find(VariableRow.TABLE, VariableRow.TABLE.keyOf(row), LockMode.READ_COMMITTED)
          == null) {
        tx.insert(VariableRow.TABLE, row);
        tx.commit();
      }
    } catch (DuplicateKeyException e) {
      // Another namenode made it.
    }
  }

  /** Whether {@code a} is {@code b} or an ancestor of it, by path. */
  static boolean covers(String a, String b) {
    if (a.equals(b) || a.equals("/")) {
      return true;
    }
    return b.startsWith(a) && b.charAt(a.length()) == '/';
  }

  private static final class Mark extends Operation<InodeRow> {
    private final String path;
    private final byte op;
    private final String user;
    private final long me;
    private final Precheck precheck;
    private final Faults faults;
    private ResolvedPath resolved;
    private List<OnGoingSubtreeOpRow> ongoing;

    Mark(String path, byte op, String user, long me, Precheck precheck, Faults faults) {
      this.path = path;
      this.op = op;
      this.user = user;
      this.me = me;
      this.precheck = precheck;
      this.faults = faults;
    }

    @Override
    public String name() {
      return "subtreeMark";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
      if (resolved.target() == null) {
        return;
      }
      faults.at(Faults.Point.SUBTREE_MARK_RESOLVED);
      // Shared on the snapshot counter, which allowSnapshot and createSnapshot lock exclusively
      // before they read the operations in progress: a snapshot is wholly before the mark (the
      // operation's checks see it) or after (it sees the mark and waits); docs/architecture.md,
      // "Snapshots", snapshots and subtree operations.
      tx.find(VariableRow.TABLE, SnapshotIds.KEY, LockMode.SHARED);
      tx.find(VariableRow.TABLE, VariableRow.TABLE.key(SERIALIZER), LockMode.EXCLUSIVE);
      ongoing = tx.findByPartition(OnGoingSubtreeOpRow.TABLE, PARTITION, LockMode.READ_COMMITTED);
    }

    @Override
    protected InodeRow execute(ExecutePhase tx) throws IOException {
      if (!precheck.check(resolved)) {
        return null;
      }
      InodeRow target = resolved.target();
      String p = PathNames.prefix(resolved.components(), resolved.depth());
      for (OnGoingSubtreeOpRow o : ongoing) {
        if (o.path() != null && (covers(o.path(), p) || covers(p, o.path()))) {
          throw new SubtreeMarkedException(
              "the subtree operation on " + o.path(), o.inodeId(), o.namenodeId());
        }
      }
      MutableInode m = MutableInode.of(target);
      m.subtreeLocked = true;
      m.subtreeLockOwner = me;
      InodeRow marked = m.toRow();
      tx.update(InodeRow.TABLE, marked);
      tx.insert(
          OnGoingSubtreeOpRow.TABLE,
          new OnGoingSubtreeOpRow(
              PARTITION,
              target.id(),
              p,
              me,
              op,
              System.currentTimeMillis(),
              io.hops.namenode.security.LongNames.key(user),
              null));
      return marked;
    }
  }

  /** Clears one mark if {@code owner} still holds it; removes {@code owner}'s record of it. */
  private static final class Clear extends Operation<Boolean> {
    private final long inodeId;
    private final long owner;
    private InodeRow row;
    private OnGoingSubtreeOpRow record;

    Clear(long inodeId, long owner) {
      this.inodeId = inodeId;
      this.owner = owner;
    }

    @Override
    public String name() {
      return "subtreeUnmark";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      // By id (the unique index): the root may have moved since it was marked.
      List<InodeRow> seen = tx.findByIndex(InodeRow.TABLE, "id", inodeId, LockMode.READ_COMMITTED);
      if (!seen.isEmpty()) {
        InodeRow s = seen.get(0);
        row =
            tx.find(
                InodeRow.TABLE,
                s.id() == Inodes.ROOT_ID ? Inodes.rootKey() : Inodes.key(s.parentId(), s.name()),
                LockMode.EXCLUSIVE);
        if (row != null && row.id() != inodeId) {
          throw new io.hops.dal.TransientStorageException("inode " + inodeId + " moved");
        }
      }
      record =
          tx.find(
              OnGoingSubtreeOpRow.TABLE,
              OnGoingSubtreeOpRow.TABLE.key(PARTITION, inodeId),
              LockMode.READ_COMMITTED);
    }

    @Override
    protected Boolean execute(ExecutePhase tx) throws IOException {
      boolean cleared = false;
      if (row != null && row.subtreeLocked() && row.subtreeLockOwner() == owner) {
        MutableInode m = MutableInode.of(row);
        m.subtreeLocked = false;
        m.subtreeLockOwner = 0;
        tx.update(InodeRow.TABLE, m.toRow());
        cleared = true;
      }
      if (record != null && record.namenodeId() == owner) {
        tx.delete(OnGoingSubtreeOpRow.TABLE, record);
        cleared = true;
      }
      return cleared;
    }
  }
}
