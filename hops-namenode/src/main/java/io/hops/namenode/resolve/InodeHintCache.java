package io.hops.namenode.resolve;

import io.hops.dal.schema.Key;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hints from (parent id, name) to inode id, so a path of depth N is resolved in one batched read
 * (docs/architecture.md, "Transactions"). A hint is never trusted: every row read is checked
 * against it and a wrong hint only costs extra reads, after which it is repaired. Bounded: past its
 * capacity it starts over.
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
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  public InodeHintCache(int capacity) {
    this.capacity = capacity;
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
    Hint known = hints.get(new ChildName(parentId, name));
    if (known != null && known.id == id && (known.key != null || !dir) && places.get(id) == known) {
      return; // every resolution confirms its hints: reads only, no writes to shared maps
    }
    if (hints.size() >= capacity) {
      hints.clear();
    }
    if (places.size() >= capacity) {
      places.clear();
    }
    // The same inode keeps the key it had; a directory without one gets it built.
    Key key = known != null && known.id == id ? known.key : null;
    if (key == null && dir) {
      key = Inodes.key(parentId, name);
    }
    Hint hint = new Hint(parentId, name, id, key);
    hints.put(hint, hint);
    places.put(id, hint);
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

  public void remove(long parentId, String name) {
    ChildName child = new ChildName(parentId, name);
    // Most names removed have no hint (a name being created): a look, which takes no lock, first.
    if (hints.containsKey(child)) {
      hints.remove(child);
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
    if (chains.size() >= Math.max(1, capacity / 16)) {
      chains.clear();
    }
    chains.put(dirPath, chain);
  }

  /** Forgets the chain of {@code dirPath}: a row read through it did not match it. */
  public void removeChain(String dirPath) {
    chains.remove(dirPath);
  }

  public void clear() {
    hints.clear();
    places.clear();
    chains.clear();
  }

  public int size() {
    return hints.size();
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
