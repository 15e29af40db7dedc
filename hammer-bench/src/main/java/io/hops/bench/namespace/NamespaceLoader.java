package io.hops.bench.namespace;

import io.hops.dal.BulkLoad;
import io.hops.dal.IdPool;
import io.hops.dal.IdRange;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a namespace of many files straight into a hops metadata store, through the DAL, in
 * transactions of a few thousand rows (docs/benchmarks.md, "A big namespace").
 *
 * <p>The shape is {@link NamespaceGenerator}'s: below a new directory {@code base}, one part per
 * {@code dirsPerThread * filesPerDir} files ({@code base/pN/[spine/]tree}), as the benchmark's
 * threads build theirs through the client. The rows are those the namenode writes for {@code
 * mkdirs} and for a file's {@code create} and {@code close}: inodes in their parent's partition
 * with exact children counts, ids from the namenode's own {@code inode_id} counter (so later
 * creates never collide), owner and group of {@code base}'s parent, the default permissions under
 * umask 022. A file of {@code fileSize} bytes is kept in the database as a small file (its data
 * rows in the tier its length picks); an empty file has no data and no block. Files larger than the
 * small-file maximum would need blocks with replicas on datanodes, which the loader does not write:
 * it refuses them.
 *
 * <p>Where the engine has a {@link BulkLoad} (the embedded one), the rows go into the store's files
 * outside transactions: each writer takes ids a {@link #BULK_IDS} range at a time from the same
 * counter and flushes its rows before it takes the next, so that each flush's keys (the rows of the
 * directories of one range and their index entries) overlap no other's; the parts' own rows,
 * children of {@code base}, go in one flush at the end, which makes the whole namespace visible at
 * once. Otherwise, or once {@link #transactional()} is asked for, the rows go in transactions of a
 * few thousand rows. The two write the same rows ({@code NamespaceBulkLoadTest}).
 *
 * <p>It may run while namenodes serve the store (they see the new rows; their caches hold only
 * hints), or with none running, before one starts.
 */
public final class NamespaceLoader {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceLoader.class);
  private static final int ROWS_PER_TX = 4_000;

  /**
   * Threads writing parts at once. On 2 cores one writer left the processors idle while its commits
   * were written and its next part's names generated; more writers than cores also take a larger
   * share of a machine other work loads (docs/benchmarks.md, "A big namespace").
   */
  static final int WRITERS = 4;

  /** Tries of one addition to {@code base}'s children count before the load fails. */
  private static final int COUNT_ATTEMPTS = 10;

  private static final int ID_RANGE = 1 << 16;

  /**
   * Ids a writer of the bulk path takes at a time, and so the inodes of one flush: about 250 MB of
   * sorted keys and values on the heap per writer for files of 100 bytes.
   */
  static final int BULK_IDS = 1 << 19;

  private static final short DIR_PERMISSION = 0755;
  private static final short FILE_PERMISSION = 0644;

  /**
   * What a load made.
   *
   * @param files files made
   * @param dirs directories made, {@code base} too
   * @param dataBytes bytes of small-file data written
   * @param nanos time taken
   * @param sample paths of files spread over the namespace, for a read-back check
   * @param firstId the smallest inode id the load used
   * @param lastId the largest inode id the load used
   */
  public record Result(
      long files,
      long dirs,
      long dataBytes,
      long nanos,
      List<Path> sample,
      long firstId,
      long lastId) {
    /** Files made per second. */
    public double filesPerSecond() {
      return files / (nanos / 1e9);
    }
  }

  private final Storage storage;
  private final NamespaceSpec spec;
  private final SmallFileStore smallFiles;
  private final short replication;
  private final long blockSize;
  private final IdPool ids;
  private final AtomicLong lastId = new AtomicLong();
  private boolean bulk = true;

  /** A loader into {@code storage}; {@code conf} gives the small-file tiers and file defaults. */
  public NamespaceLoader(Storage storage, NamespaceSpec spec, Configuration conf) {
    this.storage = storage;
    this.spec = spec;
    this.smallFiles = new SmallFileStore(conf);
    this.replication =
        (short)
            conf.getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    this.blockSize =
        conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
    this.ids = new IdPool(storage, "inode_id", ID_RANGE);
    if (spec.fileSize() > smallFiles.maxSize()) {
      throw new UnsupportedOperationException(
          "namespace loader: files of "
              + spec.fileSize()
              + " bytes are over the small-file maximum ("
              + smallFiles.maxSize()
              + " bytes) and would need blocks with replicas on datanodes, which the loader does"
              + " not write; use a file size of at most "
              + smallFiles.maxSize());
    }
  }

  /** Writes in transactions even where the engine has a bulk load (to compare the two). */
  public NamespaceLoader transactional() {
    bulk = false;
    return this;
  }

  /**
   * The bytes of the file at {@code path}, as the loader writes them: a check can recompute them.
   */
  public static byte[] contentOf(Path path, long size) {
    return contentOf(path.toUri().getPath(), size);
  }

  /** As {@link #contentOf(Path, long)}, for the file at the absolute {@code path}. */
  static byte[] contentOf(String path, long size) {
    byte[] data = new byte[(int) size];
    SplittableRandom r = new SplittableRandom(path.hashCode());
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) ('a' + r.nextInt(26));
    }
    return data;
  }

  /**
   * Makes {@code files} files below the new directory {@code base}, whose parent must exist; keeps
   * about {@code sampleSize} of their paths in the result. {@link #WRITERS} threads each take the
   * next part not yet taken and write it in their own transactions.
   */
  public Result load(Path base, long files, long seed, int sampleSize) throws IOException {
    long start = System.nanoTime();
    InodeRow parent = lookUp(base.getParent());
    MutableInode top =
        newInode(ids::next, parent.id(), base.getName(), true, parent, System.currentTimeMillis());
    attach(parent, top);
    if (spec.dirsPerThread() == 0 || spec.filesPerDir() == 0) {
      throw new IllegalArgumentException("namespace loader: the shape has no files per directory");
    }
    Parts parts =
        new Parts(
            new NamespaceGenerator(spec, base),
            base.toUri().getPath(),
            parent,
            top,
            files,
            seed,
            Math.max(1, files / Math.max(1, sampleSize)),
            sampleSize);
    java.util.Optional<BulkLoad> tops = bulk ? storage.bulkLoad() : java.util.Optional.empty();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<Void>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        writers.add(
            pool.submit(
                tops.isPresent() ? () -> parts.writeBulk(tops.get()) : parts::writeTransactions));
      }
      for (Future<Void> w : writers) {
        w.get();
      }
      if (tops.isPresent()) {
        tops.get().flush();
        addChildren(top, parts.parts);
      }
      awaitDurable();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("namespace loader: interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException io
          ? io
          : new IOException("namespace loader: writing the namespace failed", cause);
    } finally {
      pool.shutdownNow();
      tops.ifPresent(BulkLoad::close);
    }
    return new Result(
        parts.made.sum(),
        parts.dirs.sum() + 1,
        parts.bytes.sum(),
        System.nanoTime() - start,
        List.copyOf(parts.sample.values()),
        top.id,
        lastId.get());
  }

  /**
   * Makes {@code files} empty files, named {@code name.apply(i)}, in the new directory {@code dir},
   * whose parent must exist: one directory as big as a load can make it.
   */
  public Result loadFlat(Path dir, long files, java.util.function.LongFunction<String> name)
      throws IOException {
    if (spec.fileSize() != 0) {
      throw new UnsupportedOperationException("namespace loader: a flat load makes empty files");
    }
    long start = System.nanoTime();
    InodeRow parent = lookUp(dir.getParent());
    MutableInode top =
        newInode(ids::next, parent.id(), dir.getName(), true, parent, System.currentTimeMillis());
    attach(parent, top);
    try (Batch batch = new Batch(top)) {
      for (long i = 0; i < files; i++) {
        batch.insert(
            newInode(ids::next, top.id, name.apply(i), false, parent, top.modificationTime)
                .toRow());
        batch.partDone();
        batch.maybeCommit();
        if (i % 100_000 == 99_999) {
          LOG.info("namespace loader: {} of {} files in {}", i + 1, files, dir);
        }
      }
      batch.commit();
    }
    awaitDurable();
    return new Result(files, 1, 0, System.nanoTime() - start, List.of(), top.id, lastId.get());
  }

  /** The commits did not wait for the disk: a load is done once they are all on it. */
  private void awaitDurable() throws IOException {
    try {
      storage.durable().toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("namespace loader: interrupted");
    } catch (ExecutionException e) {
      throw new IOException("namespace loader: the load did not reach the disk", e.getCause());
    }
  }

  /**
   * The parts of one load, taken in turn by the writers: part {@code p} is {@code base/pP} with the
   * names of seed {@code seed + p} ({@link NamespaceGenerator#namesForThread}), its files the
   * {@code p}-th {@code perPart} of the load's.
   */
  private final class Parts {
    private final NamespaceGenerator generator;
    private final String basePath;
    private final InodeRow owner;
    private final MutableInode top;
    private final long files;
    private final long seed;
    private final long perPart;
    private final long parts;
    private final long sampleEvery;
    private final int sampleSize;
    private final AtomicLong next = new AtomicLong();
    final LongAdder made = new LongAdder();
    final LongAdder dirs = new LongAdder();
    final LongAdder bytes = new LongAdder();

    /** Sampled files by their index in the load: the sample does not depend on the writers. */
    final ConcurrentSkipListMap<Long, Path> sample = new ConcurrentSkipListMap<>();

    Parts(
        NamespaceGenerator generator,
        String basePath,
        InodeRow owner,
        MutableInode top,
        long files,
        long seed,
        long sampleEvery,
        int sampleSize) {
      this.generator = generator;
      this.basePath = basePath;
      this.owner = owner;
      this.top = top;
      this.files = files;
      this.seed = seed;
      this.perPart = (long) spec.dirsPerThread() * spec.filesPerDir();
      this.parts = (files + perPart - 1) / perPart;
      this.sampleEvery = sampleEvery;
      this.sampleSize = sampleSize;
    }

    /** One writer in transactions: parts until none is left. */
    Void writeTransactions() throws IOException {
      try (Batch batch = new Batch(top)) {
        for (long p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
          writePart(p, batch::insert, batch::insert, new PartIds(ids::next, n -> {}));
          batch.partDone();
          batch.maybeCommit();
          if (p % 1000 == 999) {
            LOG.info("namespace loader: {} of {} parts", p + 1, parts);
          }
        }
        batch.commit();
      }
      return null;
    }

    /**
     * One writer of the bulk path: parts until none is left, its rows flushed a range of ids at a
     * time; each part's own row (a child of {@code base}) into {@code tops}, flushed at the end.
     */
    Void writeBulk(BulkLoad tops) throws IOException {
      try (BulkLoad rows = storage.bulkLoad().orElseThrow()) {
        IdBlock block = new IdBlock(rows);
        for (long p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
          writePart(p, rows::insert, tops::insert, new PartIds(block::next, block::reserve));
          if (p % 1000 == 999) {
            LOG.info("namespace loader: {} of {} parts", p + 1, parts);
          }
        }
        rows.flush();
      }
      return null;
    }

    /**
     * Part {@code p}'s rows: its own (a child of {@code base}) into {@code partRow}, the rest into
     * {@code rows}, with ids from {@code ids}, told first how many the part takes.
     */
    private void writePart(
        long p, SmallFileStore.Inserts rows, SmallFileStore.Inserts partRow, PartIds ids)
        throws IOException {
      NamespaceGenerator.PartNames names = generator.namesForThread(seed + p);
      int n = spec.dirsPerThread();
      int inPart = (int) Math.min(perPart, files - p * perPart);
      ids.reserve().accept(1 + names.spine().size() + n - 1 + inPart);
      String partName = "p" + p;
      long now = top.modificationTime;
      MutableInode up = newInode(ids.next(), top.id, partName, true, owner, now);
      List<MutableInode> partDirs = new ArrayList<>();
      partDirs.add(up);
      String path = basePath + "/" + partName;
      for (String s : names.spine()) {
        up.childrenCount++;
        up = newInode(ids.next(), up.id, s, true, owner, now);
        partDirs.add(up);
        path += "/" + s;
      }
      MutableInode[] tree = new MutableInode[n];
      String[] treePaths = new String[n];
      tree[0] = up;
      treePaths[0] = path;
      for (int i = 1; i < n; i++) {
        int at = generator.dirParent(i);
        tree[at].childrenCount++;
        tree[i] = newInode(ids.next(), tree[at].id, names.dirs()[i], true, owner, now);
        treePaths[i] = treePaths[at] + "/" + names.dirs()[i];
        partDirs.add(tree[i]);
      }
      List<MutableInode> partFiles = new ArrayList<>(inPart);
      for (int i = 0; i < inPart; i++) {
        MutableInode dir = tree[i / spec.filesPerDir()];
        partFiles.add(newInode(ids.next(), dir.id, names.files()[i], false, owner, now));
        dir.childrenCount++;
      }
      partRow.insert(InodeRow.TABLE, partDirs.get(0).toRow());
      for (MutableInode d : partDirs.subList(1, partDirs.size())) {
        rows.insert(InodeRow.TABLE, d.toRow());
      }
      long first = p * perPart;
      for (int i = 0; i < inPart; i++) {
        MutableInode f = partFiles.get(i);
        rows.insert(InodeRow.TABLE, f.toRow());
        String filePath = treePaths[i / spec.filesPerDir()] + "/" + f.name;
        long index = first + i;
        if (index % sampleEvery == 0 && index / sampleEvery < sampleSize) {
          sample.put(index, new Path(filePath));
        }
        if (f.size > 0) {
          bytes.add(f.size);
          smallFiles.write(rows, f.id, contentOf(filePath, f.size));
        }
      }
      made.add(inPart);
      dirs.add(partDirs.size());
    }
  }

  /** Where a part's inodes take their ids. */
  @FunctionalInterface
  private interface IdSource {
    long next() throws IOException;
  }

  /** What makes room for a part's ids: told how many it takes before its first. */
  @FunctionalInterface
  private interface IdReserve {
    void accept(int ids) throws IOException;
  }

  /** A part's ids and the room made for them first. */
  private record PartIds(IdSource next, IdReserve reserve) {}

  /**
   * One bulk writer's ids: a range of {@link #BULK_IDS} of its own from the {@code inode_id}
   * counter, its rows flushed before it takes the next, so that one flush's rows are keyed by one
   * range (their partitions, their ids, their data's inode ids). The rest of a range too small for
   * the next part is never used, as an {@link IdPool}'s.
   */
  private final class IdBlock {
    private final BulkLoad rows;
    private long next;
    private long end;

    IdBlock(BulkLoad rows) {
      this.rows = rows;
    }

    void reserve(int ids) throws IOException {
      if (next + ids > end) {
        rows.flush();
        IdRange r = storage.allocateIds("inode_id", Math.max(BULK_IDS, ids));
        next = r.first();
        end = r.end();
      }
    }

    long next() {
      return next++;
    }
  }

  private MutableInode newInode(
      IdSource ids, long parentId, String name, boolean isDir, InodeRow owner, long now)
      throws IOException {
    return newInode(ids.next(), parentId, name, isDir, owner, now);
  }

  private MutableInode newInode(
      long id, long parentId, String name, boolean isDir, InodeRow owner, long now) {
    MutableInode m = new MutableInode();
    m.parentId = parentId;
    m.name = name;
    m.id = id;
    lastId.accumulateAndGet(m.id, Math::max);
    m.isDir = isDir;
    m.permission = isDir ? DIR_PERMISSION : FILE_PERMISSION;
    m.userId = owner.userId();
    m.groupId = owner.groupId();
    m.modificationTime = now;
    // As in HDFS: a directory's access time moves only by setTimes.
    m.accessTime = isDir ? 0 : now;
    if (!isDir) {
      m.replication = replication;
      m.preferredBlockSize = blockSize;
      m.size = spec.fileSize();
      m.fileStoredInDb = spec.fileSize() > 0;
    }
    return m;
  }

  /** The directory at {@code path}, read committed. */
  private InodeRow lookUp(Path path) throws IOException {
    try (Transaction tx = storage.begin()) {
      InodeRow at = tx.find(InodeRow.TABLE, Inodes.rootKey(), LockMode.READ_COMMITTED);
      if (at == null) {
        throw new FileNotFoundException(
            "namespace loader: the store has no root; start a namenode over it once first");
      }
      String walked = "";
      for (String name : path.toUri().getPath().split("/")) {
        if (name.isEmpty()) {
          continue;
        }
        walked += "/" + name;
        if (!at.isDir()) {
          throw new PathIsNotDirectoryException(walked);
        }
        at = tx.find(InodeRow.TABLE, Inodes.key(at.id(), name), LockMode.READ_COMMITTED);
        if (at == null) {
          throw new FileNotFoundException("namespace loader: " + walked + " does not exist");
        }
      }
      if (!at.isDir()) {
        throw new PathIsNotDirectoryException(path.toString());
      }
      return at;
    }
  }

  /** Inserts {@code base} below {@code parent}, as a mkdirs would: count and time of the parent. */
  private void attach(InodeRow parent, MutableInode base) throws IOException {
    try (Transaction tx = storage.begin()) {
      InodeRow locked =
          tx.find(InodeRow.TABLE, Inodes.key(parent.parentId(), parent.name()), LockMode.EXCLUSIVE);
      if (tx.find(InodeRow.TABLE, Inodes.key(parent.id(), base.name), LockMode.EXCLUSIVE) != null) {
        throw new FileAlreadyExistsException(
            "namespace loader: " + base.name + " already exists below inode " + parent.id());
      }
      MutableInode p = MutableInode.of(locked);
      p.childrenCount++;
      p.modificationTime = base.modificationTime;
      tx.update(InodeRow.TABLE, p.toRow());
      tx.insert(InodeRow.TABLE, base.toRow());
      tx.commit();
    }
  }

  /**
   * Adds {@code parts} to {@code base}'s children count, in one transaction after a bulk load's
   * parts are in.
   */
  private void addChildren(MutableInode base, long parts) throws IOException {
    try (Transaction tx = storage.begin()) {
      MutableInode b =
          MutableInode.of(
              tx.find(InodeRow.TABLE, Inodes.key(base.parentId, base.name), LockMode.EXCLUSIVE));
      b.childrenCount += Math.toIntExact(parts);
      tx.update(InodeRow.TABLE, b.toRow());
      tx.commitDeferred();
    }
  }

  /**
   * Rows buffered in one transaction, committed once there are a few thousand; then the count of
   * {@code base}'s children they add, in a transaction of its own. In the rows' transaction, that
   * count's lock would be held through every writer's commit of thousands of rows: the writers
   * committed one at a time (on 2 loaded cores, 4 writers waited 224 s for it in a load of 82 s).
   * So a load killed between the two commits leaves {@code base} counting up to {@link #WRITERS}
   * commits' parts fewer children than it has (which {@code fsck-namespace} reports); every other
   * state of a load is a consistent namespace.
   */
  private final class Batch implements AutoCloseable {
    private final MutableInode base;
    private Transaction tx;
    private int rows;
    private int parts;

    Batch(MutableInode base) {
      this.base = base;
    }

    /** One more part (a child of {@code base}) is in this transaction. */
    void partDone() {
      parts++;
    }

    <R extends Record> void insert(io.hops.dal.schema.Table<R> table, R row)
        throws io.hops.dal.StorageException {
      if (tx == null) {
        tx = storage.begin();
        // A load's rows are read by nobody soon: they replace what a row cache holds, add none.
        tx.readOnce();
      }
      tx.insert(table, row);
      rows++;
    }

    void insert(InodeRow row) throws io.hops.dal.StorageException {
      insert(InodeRow.TABLE, row);
    }

    void maybeCommit() throws io.hops.dal.StorageException {
      if (rows >= ROWS_PER_TX) {
        commit();
      }
    }

    @Override
    public void close() {
      if (tx != null) {
        tx.close();
      }
    }

    /**
     * Adds this batch's parts to {@code base}'s count. Its lock may wait behind the other writers'
     * commits of thousands of rows (the holder's own commit queues for the store's write turn): on
     * a loaded machine that wait passed the lock timeout, which leaves nothing written, so the
     * addition is tried again.
     */
    private void addParts() throws io.hops.dal.StorageException {
      for (int attempt = 1; ; attempt++) {
        try (Transaction count = storage.begin()) {
          InodeRow locked =
              count.find(InodeRow.TABLE, Inodes.key(base.parentId, base.name), LockMode.EXCLUSIVE);
          MutableInode b = MutableInode.of(locked);
          b.childrenCount += parts;
          count.update(InodeRow.TABLE, b.toRow());
          count.commitDeferred();
          return;
        } catch (TransientStorageException e) {
          if (attempt == COUNT_ATTEMPTS) {
            throw e;
          }
          LOG.warn(
              "namespace loader: adding {} parts to {} again: {}",
              parts,
              base.name,
              e.getMessage());
        }
      }
    }

    void commit() throws io.hops.dal.StorageException {
      if (tx != null) {
        try {
          // Not waiting for the disk: the load waits once, at its end, for all its commits.
          tx.commitDeferred();
          addParts();
        } finally {
          tx.close();
          tx = null;
          rows = 0;
          parts = 0;
        }
      }
    }
  }
}
