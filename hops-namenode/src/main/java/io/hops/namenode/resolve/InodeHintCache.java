package io.hops.namenode.resolve;

import io.hops.dal.schema.Key;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hints from (parent id, name) to inode id, so a path of depth N is resolved in one batched read
 * (docs/architecture.md, "Transactions"). A hint is never trusted: every row read is checked
 * against it and a wrong hint only costs extra reads, after which it is repaired. Bounded in bytes
 * (an estimate of each hint's objects and map entries, {@link #hintBytes}) and in entries: past
 * either it starts over, so its heap never grows with the namespace.
 *
 * <p>Also the other way, from an inode id to where it was last seen ({@link #placeOf}), so an inode
 * known only by id (the file of a block) is one primary-key read instead of an index scan over
 * every shard; the row read there is checked to carry the id.
 */
public final class InodeHintCache {
  /**
   * The key of a hint. Written out rather than a record: every component of every resolved path is
   * looked up, and a record's equals and hashCode go through generic bootstrap methods.
   */
  static class ChildName {
    final long parentId;
    final String name;
    private final int hash;

    ChildName(long parentId, String name) {
      this.parentId = parentId;
      this.name = name;
      this.hash = 31 * Long.hashCode(parentId) + name.hashCode();
    }

    @Override
    public final boolean equals(Object o) {
      return o instanceof ChildName c
          && c.hash == hash
          && c.parentId == parentId
          && c.name.equals(name);
    }

    @Override
    public final int hashCode() {
      return hash;
    }
  }

  /**
   * A hinted id and where it was seen: its parent's id and its name. For a directory also its row's
   * key, built once and kept (with the encoding the driver keeps on it): a directory is the
   * ancestor of every path below it, so its key is wanted by every resolution through it. A file's
   * key is built when wanted (files outnumber directories, and a file is at most the target of a
   * path).
   *
   * <p>One object is the hint's key and value, and what {@link #placeOf} finds by id: a new inode
   * costs the caches one object, which the collector copies as long as the inode is cached, where a
   * key, a hint and a place were three.
   */
  public static final class Hint extends ChildName {
    private final long id;
    private final Key key;

    /**
     * Whether {@link #places} holds this hint for its id, as far as this cache's writers have said:
     * set until another hint takes its place there or it is removed. Lets a resolution that
     * confirms a hint skip the lookup by id; a stale flag (a clear racing a confirmation) costs the
     * way back one repair later, as every hint is only a hint.
     */
    private volatile boolean placed = true;

    Hint(long parentId, String name, long id, Key key) {
      super(parentId, name);
      this.id = id;
      this.key = key;
    }

    public long id() {
      return id;
    }

    /** The directory's row key, or null (a file, or a directory put without the flag). */
    public Key key() {
      return key;
    }

    public long parentId() {
      return parentId;
    }

    public String name() {
      return name;
    }
  }

  /**
   * The hints of the directories on a path below the root, found by the path in one lookup instead
   * of one per component: {@code ids[i]} and {@code keys[i]} are those of the path's component i +
   * 1 (the root is component 0). As every hint, checked against the rows read.
   */
  public record DirChain(long[] ids, Key[] keys) {}

  /** Each hint by its (parent id, name); the key is the hint itself. */
  private final ConcurrentHashMap<ChildName, Hint> hints = new ConcurrentHashMap<>();

  private final ConcurrentHashMap<String, DirChain> chains = new ConcurrentHashMap<>();

  /** The same hints by id. */
  private final ConcurrentHashMap<Long, Hint> places = new ConcurrentHashMap<>();

  private final int capacity;
  private final long maxBytes;
  private final java.util.concurrent.atomic.AtomicLong bytes =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong chainBytes =
      new java.util.concurrent.atomic.AtomicLong();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  /** A cache of at most {@code capacity} hints, whatever their bytes. */
  public InodeHintCache(int capacity) {
    this(Long.MAX_VALUE, capacity);
  }

  /** A cache of at most {@code maxBytes} of heap and {@code capacity} hints. */
  public InodeHintCache(long maxBytes, int capacity) {
    this.maxBytes = maxBytes;
    this.capacity = capacity;
  }

  /**
   * The heap a hint takes in both maps, estimated as HotSpot lays objects out with compressed
   * pointers: the hint (40 bytes), its name (a Latin-1 {@code String}: 24 bytes and an array of 16
   * and the name), a directory's row key (about 96 bytes), a node in each map (32 and the table's
   * slot) and the boxed id of the map by id (16).
   */
  static long hintBytes(String name, boolean withKey) {
    return 40 + 24 + align(16 + name.length()) + (withKey ? 96 : 0) + 2 * 40 + 16;
  }

  /** A chain's heap: its path, its arrays of ids and keys (the keys are the hints'), its node. */
  static long chainBytes(String dirPath, DirChain chain) {
    return 40
        + 24
        + align(16 + dirPath.length())
        + 16
        + align(16 + 8L * chain.ids().length)
        + align(16 + 4L * chain.keys().length);
  }

  private static long align(long b) {
    return (b + 7) & ~7L;
  }

  /** The hinted id of {@code name} under {@code parentId}, or -1. */
  public long get(long parentId, String name) {
    Hint h = hint(parentId, name);
    return h == null ? -1 : h.id();
  }

  /**
   * The hint of {@code name} under {@code parentId}, or null. Not counted: see {@link #counted}.
   */
  public Hint hint(long parentId, String name) {
    return hints.get(new ChildName(parentId, name));
  }

  /**
   * Counts a resolution's lookups, once for all of its components: a shared counter bumped for
   * every component costs a read-mostly path more than the lookups themselves.
   */
  public void counted(int found, int notFound) {
    if (found > 0) {
      hits.add(found);
    }
    if (notFound > 0) {
      misses.add(notFound);
    }
  }

  public void put(long parentId, String name, long id) {
    put(parentId, name, id, false);
  }

  /**
   * As {@link #put(long, String, long)}; {@code dir}: the inode is a directory (its key is kept).
   */
  public void put(long parentId, String name, long id, boolean dir) {
    put(hints.get(new ChildName(parentId, name)), parentId, name, id, dir);
  }

  /**
   * As {@link #put(long, String, long, boolean)}, given what {@link #hint} answered for ({@code
   * parentId}, {@code name}) before the row was read: no second lookup when it holds.
   */
  public void put(Hint known, long parentId, String name, long id, boolean dir) {
    if (known != null && known.id == id && (known.key != null || !dir) && known.placed) {
      return; // every resolution confirms its hints: reads only, no writes to shared maps
    }
    if (hints.size() >= capacity
        || places.size() >= capacity
        || bytes.get() >= maxBytes - maxBytes / 16) {
      clear();
    }
    // The same inode keeps the key it had; a directory without one gets it built.
    Key key = known != null && known.id == id ? known.key : null;
    if (key == null && dir) {
      key = Inodes.key(parentId, name);
    }
    Hint hint = new Hint(parentId, name, id, key);
    Hint replaced = hints.put(hint, hint);
    Hint moved = places.put(id, hint);
    if (moved != null && moved != hint) {
      moved.placed = false;
    }
    // A replaced hint's objects go; a hint whose place moved away from it stays as a hint.
    long grown = hintBytes(name, key != null);
    if (replaced != null) {
      grown -= hintBytes(replaced.name, replaced.key != null);
    }
    bytes.addAndGet(grown);
  }

  /**
   * The hint of ({@code parentId}, {@code name}) proved to be {@code id}: only the way back ({@link
   * #placeOf}) may need repair. One map lookup instead of {@link #put}'s two.
   */
  public void confirmed(long parentId, String name, long id) {
    Hint p = places.get(id);
    if (p == null || p.parentId != parentId || !p.name.equals(name)) {
      put(parentId, name, id);
    }
  }

  /**
   * Where the inode {@code id} was last seen ({@link Hint#parentId}, {@link Hint#name}), or null.
   */
  public Hint placeOf(long id) {
    return places.get(id);
  }

  /**
   * Forgets the hint of {@code name} under {@code parentId}, by name and by id (unless the id's
   * place has moved to another hint since): a deleted file's hint would otherwise stay in the map
   * by id until the cache starts over, and a workload that creates and deletes files would make it
   * start over with the hints in use.
   */
  public void remove(long parentId, String name) {
    ChildName child = new ChildName(parentId, name);
    // Most names removed have no hint (a name being created): a look, which takes no lock, first.
    if (hints.containsKey(child)) {
      Hint removed = hints.remove(child);
      if (removed != null) {
        if (places.remove(removed.id, removed)) {
          removed.placed = false;
        }
        bytes.addAndGet(-hintBytes(removed.name, removed.key != null));
      }
    }
  }

  /**
   * The hints of the directories on {@code dirPath} ({@link DirChain}), or null. Not counted: see
   * {@link #counted}.
   */
  public DirChain chain(String dirPath) {
    return chains.get(dirPath);
  }

  /** Keeps the hints of the directories on {@code dirPath}, once each has been read and checked. */
  public void putChain(String dirPath, DirChain chain) {
    // A chain is the size of a few hints: a sixteenth of the hints' capacity bounds their memory.
    if (chains.size() >= Math.max(1, capacity / 16) || chainBytes.get() >= maxBytes / 16) {
      chains.clear();
      chainBytes.set(0);
    }
    if (chains.put(dirPath, chain) == null) {
      chainBytes.addAndGet(chainBytes(dirPath, chain));
    }
  }

  /** Forgets the chain of {@code dirPath}: a row read through it did not match it. */
  public void removeChain(String dirPath) {
    DirChain removed = chains.remove(dirPath);
    if (removed != null) {
      chainBytes.addAndGet(-chainBytes(dirPath, removed));
    }
  }

  public void clear() {
    hints.clear();
    places.clear();
    chains.clear();
    bytes.set(0);
    chainBytes.set(0);
  }

  public int size() {
    return hints.size();
  }

  /** The heap the hints and chains take, estimated ({@link #hintBytes}, {@link #chainBytes}). */
  public long bytes() {
    return bytes.get() + chainBytes.get();
  }

  /** Path components whose hint (right or stale) was found since this namenode started. */
  public long hits() {
    return hits.sum();
  }

  /** Path components whose hint was looked up and not found. */
  public long misses() {
    return misses.sum();
  }
}
