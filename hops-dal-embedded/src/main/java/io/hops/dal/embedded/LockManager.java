package io.hops.dal.embedded;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shared/exclusive row locks for the embedded engine, held by transactions until {@link
 * #releaseAll}.
 *
 * <p>Locks are granted in FIFO order: a request that conflicts with a holder or with an earlier
 * waiter queues, so a writer is not starved by a stream of readers. The exception is a holder
 * asking for more (an upgrade from shared to exclusive): it only waits for the other holders and
 * queues ahead of non-holders, because making it wait behind a writer that itself waits for the
 * upgrader would be a deadlock of our own making.
 *
 * <p>A request that would close a cycle in the waits-for graph fails at once (the requester is the
 * victim); one that waits longer than the lock-wait timeout fails too. Both throw {@link
 * TransientStorageException} so the caller rolls back and retries.
 *
 * <p>All state sits behind one mutex: critical sections are a few map operations, and a single lock
 * makes deadlock detection a plain walk over a consistent graph.
 */
public final class LockManager {
  private final long timeoutMillis;
  private final ReentrantLock mutex = new ReentrantLock();
  private final Map<Object, LockEntry> entries = new HashMap<>();
  private final IdentityHashMap<Object, OwnerState> owners = new IdentityHashMap<>();

  public LockManager(long lockWaitTimeoutMillis) {
    if (lockWaitTimeoutMillis < 0) {
      throw new IllegalArgumentException("negative lock wait timeout: " + lockWaitTimeoutMillis);
    }
    this.timeoutMillis = lockWaitTimeoutMillis;
  }

  /**
   * Blocks until {@code owner} holds {@code key} in at least {@code mode}. {@link
   * LockMode#READ_COMMITTED} takes no lock. On a deadlock, a timeout or an interrupt this throws
   * and the owner keeps what it already held, for the caller to release after rolling back.
   *
   * <p>Returns the key the lock is held under: an equal key, the one its first requester passed
   * (whatever that one carries, as its encoding, serves the caller too); {@code key} itself for
   * {@link LockMode#READ_COMMITTED}.
   */
  public Object acquire(Object owner, Object key, LockMode mode) throws TransientStorageException {
    if (mode == LockMode.READ_COMMITTED) {
      return key;
    }
    mutex.lock();
    try {
      LockEntry entry = entries.get(key);
      if (entry == null) {
        entry = new LockEntry(key);
        entries.put(key, entry);
      }
      Request held = entry.holderOf(owner);
      if (held != null && covers(held.mode, mode)) {
        return entry.key;
      }
      boolean upgrade = held != null;
      Request request = new Request(owner, entry, mode, upgrade);
      if (!entry.conflictsWithHolders(request) && (upgrade || entry.waiters.isEmpty())) {
        grant(request);
        return entry.key;
      }
      await(request);
      return entry.key;
    } finally {
      mutex.unlock();
    }
  }

  /** Releases every lock {@code owner} holds and grants what can now be granted. Idempotent. */
  public void releaseAll(Object owner) {
    mutex.lock();
    try {
      OwnerState state = owners.get(owner);
      if (state == null) {
        return;
      }
      // By index: if this owner also waits in another thread, a grant below may append to held.
      List<LockEntry> held = state.held;
      int released = held.size();
      for (int i = 0; i < released; i++) {
        LockEntry entry = held.get(i);
        entry.removeHolder(owner);
        grantWaiters(entry);
        removeIfUnused(entry);
      }
      held.subList(0, released).clear();
      // Such a waiting request is not cancelled: its state stays for deadlock detection.
      if (held.isEmpty() && state.waiting == null) {
        owners.remove(owner);
      }
    } finally {
      mutex.unlock();
    }
  }

  /** Number of keys {@code owner} currently holds. */
  public int heldCount(Object owner) {
    mutex.lock();
    try {
      OwnerState state = owners.get(owner);
      return state == null ? 0 : state.held.size();
    } finally {
      mutex.unlock();
    }
  }

  /** Keys with at least one holder or waiter; 0 once every owner has released. */
  public int lockedKeyCount() {
    mutex.lock();
    try {
      return entries.size();
    } finally {
      mutex.unlock();
    }
  }

  /** Queues {@code request} and waits for a grant, a deadlock verdict or the timeout. */
  private void await(Request request) throws TransientStorageException {
    LockEntry entry = request.entry;
    OwnerState state = stateOf(request.owner);
    request.wakeUp = mutex.newCondition();
    entry.enqueue(request);
    state.waiting = request;
    try {
      if (closesCycle(request)) {
        abandon(request);
        throw new TransientStorageException(
            "deadlock: waiting for "
                + request.mode
                + " lock on "
                + entry.key
                + " would close a cycle; this transaction is the victim");
      }
      waitForGrant(request);
    } finally {
      state.waiting = null;
      if (state.held.isEmpty()) {
        owners.remove(request.owner);
      }
    }
  }

  private void waitForGrant(Request request) throws TransientStorageException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!request.granted) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        abandon(request);
        throw new TransientStorageException(
            "lock wait timeout after " + timeoutMillis + " ms on " + request.entry.key);
      }
      try {
        request.wakeUp.awaitNanos(remaining);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        if (request.granted) {
          return; // too late to refuse: the next blocking call sees the interrupt
        }
        abandon(request);
        throw new TransientStorageException(
            "interrupted while waiting for a lock on " + request.entry.key);
      }
    }
  }

  /** Takes a waiter out of its queue; those behind it may now be grantable. */
  private void abandon(Request request) {
    LockEntry entry = request.entry;
    entry.waiters.remove(request);
    grantWaiters(entry);
    removeIfUnused(entry);
  }

  /** Grants the longest prefix of the queue that is compatible with the holders. */
  private void grantWaiters(LockEntry entry) {
    List<Request> waiters = entry.waiters;
    while (!waiters.isEmpty() && !entry.conflictsWithHolders(waiters.get(0))) {
      Request next = waiters.remove(0);
      grant(next);
      next.granted = true;
      // It waits for nobody from now on, even before its thread wakes up: a stale edge here
      // would let deadlock detection see cycles that are not there.
      owners.get(next.owner).waiting = null;
      next.wakeUp.signal();
    }
  }

  private void grant(Request request) {
    LockEntry entry = request.entry;
    Request held = entry.holderOf(request.owner);
    if (held != null) {
      held.mode = request.mode; // an upgrade: the weaker and re-entrant cases never get here
    } else {
      entry.holders.add(request);
      stateOf(request.owner).held.add(entry);
    }
  }

  /**
   * Whether an owner that {@code request} waits for waits, directly or through others, for the
   * requester. Every other wait was checked when it began, so any new cycle runs through it.
   */
  private boolean closesCycle(Request request) {
    ArrayDeque<Object> toVisit = new ArrayDeque<>();
    Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());
    request.entry.addBlockers(request, toVisit);
    while (!toVisit.isEmpty()) {
      Object owner = toVisit.pop();
      if (owner == request.owner) {
        return true;
      }
      OwnerState state = owners.get(owner);
      if (visited.add(owner) && state != null && state.waiting != null) {
        state.waiting.entry.addBlockers(state.waiting, toVisit);
      }
    }
    return false;
  }

  private OwnerState stateOf(Object owner) {
    OwnerState state = owners.get(owner);
    if (state == null) {
      state = new OwnerState();
      owners.put(owner, state);
    }
    return state;
  }

  private void removeIfUnused(LockEntry entry) {
    if (entry.holders.isEmpty() && entry.waiters.isEmpty()) {
      entries.remove(entry.key);
    }
  }

  private static boolean covers(LockMode held, LockMode wanted) {
    return held == LockMode.EXCLUSIVE || wanted == LockMode.SHARED;
  }

  /** One key's holders and FIFO queue of waiters. */
  private static final class LockEntry {
    final Object key;
    final List<Request> holders = new ArrayList<>(2);
    final List<Request> waiters = new ArrayList<>(); // no backing array until someone waits

    LockEntry(Object key) {
      this.key = key;
    }

    Request holderOf(Object owner) {
      for (Request holder : holders) {
        if (holder.owner == owner) {
          return holder;
        }
      }
      return null;
    }

    void removeHolder(Object owner) {
      for (int i = 0; i < holders.size(); i++) {
        if (holders.get(i).owner == owner) {
          holders.remove(i);
          return;
        }
      }
    }

    boolean conflictsWithHolders(Request request) {
      for (Request holder : holders) {
        if (holder.owner != request.owner && !holder.mode.compatibleWith(request.mode)) {
          return true;
        }
      }
      return false;
    }

    /** Upgrades go behind earlier upgrades but ahead of every non-holder. */
    void enqueue(Request request) {
      int position = waiters.size();
      if (request.upgrade) {
        position = 0;
        while (position < waiters.size() && waiters.get(position).upgrade) {
          position++;
        }
      }
      waiters.add(position, request);
    }

    /** Adds the owners {@code request} waits for: conflicting holders and earlier waiters. */
    void addBlockers(Request request, ArrayDeque<Object> out) {
      for (Request holder : holders) {
        if (holder.owner != request.owner && !holder.mode.compatibleWith(request.mode)) {
          out.push(holder.owner);
        }
      }
      for (Request waiter : waiters) {
        if (waiter == request) {
          return;
        }
        if (waiter.owner != request.owner && !waiter.mode.compatibleWith(request.mode)) {
          out.push(waiter.owner);
        }
      }
    }
  }

  /** A request for a lock; once granted (unless an upgrade) it is the holder's record. */
  private static final class Request {
    final Object owner;
    final LockEntry entry;
    final boolean upgrade;
    LockMode mode;
    boolean granted;
    Condition wakeUp; // created only when the request has to wait

    Request(Object owner, LockEntry entry, LockMode mode, boolean upgrade) {
      this.owner = owner;
      this.entry = entry;
      this.mode = mode;
      this.upgrade = upgrade;
    }
  }

  /** What one owner holds, and the request it is blocked on, if any. */
  private static final class OwnerState {
    final List<LockEntry> held = new ArrayList<>();
    Request waiting;
  }
}
