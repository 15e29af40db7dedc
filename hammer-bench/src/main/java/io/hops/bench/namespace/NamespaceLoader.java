package io.hops.bench.namespace;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
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
 * <p>It may run while namenodes serve the store (they see the new rows; their caches hold only
 * hints), or with none running, before one starts.
 */
public final class NamespaceLoader {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceLoader.class);
  private static final int ROWS_PER_TX = 4_000;
  private static final int ID_RANGE = 1 << 16;
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
  private long lastId;

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

  /**
   * The bytes of the file at {@code path}, as the loader writes them: a check can recompute them.
   */
  public static byte[] contentOf(Path path, long size) {
    byte[] data = new byte[(int) size];
    SplittableRandom r = new SplittableRandom(path.toUri().getPath().hashCode());
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) ('a' + r.nextInt(26));
    }
    return data;
  }

  /**
   * Makes {@code files} files below the new directory {@code base}, whose parent must exist; keeps
   * about {@code sampleSize} of their paths in the result.
   */
  public Result load(Path base, long files, long seed, int sampleSize) throws IOException {
    long start = System.nanoTime();
    InodeRow parent = lookUp(base.getParent());
    MutableInode top =
        newInode(parent.id(), base.getName(), true, parent, System.currentTimeMillis());
    attach(parent, top);
    NamespaceGenerator generator = new NamespaceGenerator(spec, base);
    long perPart = (long) spec.dirsPerThread() * spec.filesPerDir();
    if (perPart == 0) {
      throw new IllegalArgumentException("namespace loader: the shape has no files per directory");
    }
    long parts = (files + perPart - 1) / perPart;
    long sampleEvery = Math.max(1, files / Math.max(1, sampleSize));
    List<Path> sample = new ArrayList<>();
    long made = 0;
    long dirs = 1;
    long bytes = 0;
    try (Batch batch = new Batch(top)) {
      for (long p = 0; p < parts; p++) {
        ThreadNamespace part = generator.forThread("p" + p, seed + p);
        Map<Path, MutableInode> inodes = new HashMap<>();
        inodes.put(base, top);
        List<MutableInode> partDirs = new ArrayList<>();
        for (Path dir : part.dirs()) {
          dir(dir, inodes, partDirs, parent);
        }
        int inPart = (int) Math.min(perPart, files - made);
        List<MutableInode> partFiles = new ArrayList<>(inPart);
        for (Path file : part.files().subList(0, inPart)) {
          MutableInode dir = inodes.get(file.getParent());
          MutableInode f = newInode(dir.id, file.getName(), false, parent, top.modificationTime);
          dir.childrenCount++;
          partFiles.add(f);
          if (made++ % sampleEvery == 0 && sample.size() < sampleSize) {
            sample.add(file);
          }
        }
        dirs += partDirs.size();
        for (MutableInode d : partDirs) {
          batch.insert(d.toRow());
        }
        for (int i = 0; i < partFiles.size(); i++) {
          MutableInode f = partFiles.get(i);
          batch.insert(f.toRow());
          if (f.size > 0) {
            bytes += f.size;
            byte[] data = contentOf(part.files().get(i), f.size);
            smallFiles.write(batch::insert, f.id, data);
          }
        }
        batch.partDone();
        batch.maybeCommit();
        if (p % 1000 == 999) {
          LOG.info("namespace loader: {} of {} files", made, files);
        }
      }
      batch.commit();
    }
    return new Result(
        made, dirs, bytes, System.nanoTime() - start, List.copyOf(sample), top.id, lastId);
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
        newInode(parent.id(), dir.getName(), true, parent, System.currentTimeMillis());
    attach(parent, top);
    try (Batch batch = new Batch(top)) {
      for (long i = 0; i < files; i++) {
        batch.insert(newInode(top.id, name.apply(i), false, parent, top.modificationTime).toRow());
        batch.partDone();
        batch.maybeCommit();
        if (i % 100_000 == 99_999) {
          LOG.info("namespace loader: {} of {} files in {}", i + 1, files, dir);
        }
      }
      batch.commit();
    }
    return new Result(files, 1, 0, System.nanoTime() - start, List.of(), top.id, lastId);
  }

  /** The directory {@code dir}, made with any missing ancestor below {@code base}. */
  private MutableInode dir(
      Path dir, Map<Path, MutableInode> made, List<MutableInode> out, InodeRow owner)
      throws IOException {
    MutableInode d = made.get(dir);
    if (d != null) {
      return d;
    }
    MutableInode up = dir(dir.getParent(), made, out, owner);
    d = newInode(up.id, dir.getName(), true, owner, up.modificationTime);
    up.childrenCount++;
    made.put(dir, d);
    out.add(d);
    return d;
  }

  private MutableInode newInode(long parentId, String name, boolean isDir, InodeRow owner, long now)
      throws IOException {
    MutableInode m = new MutableInode();
    m.parentId = parentId;
    m.name = name;
    m.id = ids.next();
    lastId = m.id;
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
   * Rows buffered in one transaction, committed once there are a few thousand, with the count of
   * {@code base}'s children they add: every committed state of a load is a consistent namespace.
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

    void commit() throws io.hops.dal.StorageException {
      if (tx != null) {
        try {
          InodeRow locked =
              tx.find(InodeRow.TABLE, Inodes.key(base.parentId, base.name), LockMode.EXCLUSIVE);
          MutableInode b = MutableInode.of(locked);
          b.childrenCount += parts;
          tx.update(InodeRow.TABLE, b.toRow());
          tx.commit();
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
