package io.hops.bench.client;

import io.hops.bench.namespace.BigDirectory;
import io.hops.bench.namespace.NameGenerator;
import io.hops.bench.namespace.NamespaceSpec;
import io.hops.bench.namespace.ThreadNamespace;
import io.hops.bench.workload.Op;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;

/**
 * What each {@link Op} does, on one client thread's own part of the namespace. An operation that
 * returns normally succeeded; a thrown exception, or a {@code false} from a call that reports
 * success that way, is a failure.
 */
final class FileOps {
  private static final FsPermission[] FILE_MODES = {
    new FsPermission((short) 0644), new FsPermission((short) 0640)
  };
  private static final FsPermission[] DIR_MODES = {
    new FsPermission((short) 0755), new FsPermission((short) 0750)
  };

  /** The most files made before the run a thread is dealt in the big directory. */
  static final int BIG_DEAL = 2_000;

  private static final String[] GROUPS = {"hammer-a", "hammer-b"};
  private static final short[] REPLICATION = {2, 1};

  private final FileSystem fs;
  private final String user;
  private final List<Path> dirs;
  private final ArrayList<Path> ownFiles;
  private final ArrayList<Path> sharedFiles = new ArrayList<>();

  /** This thread's files in the big directory: some of those made before the run, its creates. */
  private final ArrayList<Path> bigFiles = new ArrayList<>();

  /** Files this thread renamed out of the big directory, into its own tree, to rename back. */
  private final ArrayList<Path> renamedOut = new ArrayList<>();

  /** The big directory's files when it was made (0: not in the big directory). */
  private long bigDirectoryFiles;

  /** The files the running phase uses: this thread's own, or those it made in the shared one. */
  private ArrayList<Path> files;

  /** The directory every thread shares in this phase, or null. */
  private Path shared;

  private final SplittableRandom random;
  private final NameGenerator names;
  private final long fileSize;
  private final byte[] buffer = new byte[64 * 1024];
  private final int refillBatch;
  private int toggle;
  private int renames;

  FileOps(FileSystem fs, String user, ThreadNamespace ns, NamespaceSpec spec, long seed) {
    this.fs = fs;
    this.user = user;
    this.dirs = ns.dirs();
    this.ownFiles = new ArrayList<>(ns.files());
    this.files = ownFiles;
    this.random = new SplittableRandom(seed);
    this.names = new NameGenerator(spec, random.split());
    this.fileSize = spec.fileSize();
    this.refillBatch = Math.max(16, 4 * spec.filesPerDir());
    random.nextBytes(buffer);
  }

  /** Files this thread can still use (creates add, deletes remove). */
  int fileCount() {
    return files.size();
  }

  /**
   * Runs the next operations in {@code dir}, a directory every thread shares (created by the first
   * create in it), on the files this thread made there; null: in this thread's own tree again.
   */
  void shareDirectory(Path dir) {
    shared = dir;
    files = dir == null ? ownFiles : sharedFiles;
    bigDirectoryFiles = 0;
  }

  /**
   * Runs the next operations in {@link BigDirectory#PATH}, made before the run with {@code made}
   * files: this thread, number {@code thread} of {@code threads}, is dealt up to {@link #BIG_DEAL}
   * of them (every {@code threads}-th), so that no two threads rename or delete the same file.
   */
  void useBigDirectory(long made, int thread, int threads) {
    if (bigDirectoryFiles == 0 && bigFiles.isEmpty()) {
      for (long i = thread; i < made && bigFiles.size() < BIG_DEAL; i += threads) {
        bigFiles.add(BigDirectory.file(i));
      }
    }
    shared = BigDirectory.PATH;
    files = bigFiles;
    bigDirectoryFiles = made;
  }

  /** The files this thread believes exist now, in its tree and in the shared directory. */
  List<Path> files() {
    List<Path> all = new ArrayList<>(ownFiles);
    all.addAll(sharedFiles);
    all.addAll(renamedOut);
    return List.copyOf(all);
  }

  /** Forget files the namespace setup could not create. */
  void retainFiles(List<Path> created) {
    ownFiles.clear();
    ownFiles.addAll(created);
  }

  void run(Op op) throws IOException {
    int t = toggle++ & 1;
    switch (op) {
      case READ_FILE -> read(file(op));
      case STAT_FILE -> fs.getFileStatus(file(op));
      case STAT_DIR -> fs.getFileStatus(dir());
      case LS_FILE -> fs.listStatus(file(op));
      case LS_DIR -> {
        if (bigDirectoryFiles > 0) {
          listingPage();
        } else {
          fs.listStatus(dir());
        }
      }
      case CONTENT_SUMMARY -> fs.getContentSummary(dir());
      case CHMOD_FILE -> fs.setPermission(file(op), FILE_MODES[t]);
      case CHMOD_DIR -> fs.setPermission(dir(), DIR_MODES[t]);
      case CHOWN_FILE -> fs.setOwner(file(op), user, GROUPS[t]);
      case CHOWN_DIR -> fs.setOwner(dir(), user, GROUPS[t]);
      case SET_REPLICATION -> check(fs.setReplication(file(op), REPLICATION[t]), op);
      case RENAME_FILE -> {
        if (bigDirectoryFiles > 0) {
          renameOutOrIn();
        } else {
          rename();
        }
      }
      case CREATE_FILE -> files.add(create(dir()));
      case APPEND_FILE -> append(file(op));
      case MKDIRS -> check(fs.mkdirs(new Path(dir(), names.next('m'))), op);
      case DELETE_FILE -> delete();
    }
  }

  /**
   * Deletes use up this thread's files, and a later phase may need them: when none are left, this
   * creates a batch more (outside the measurement: the caller books the time as a pause). Returns
   * how many it made.
   */
  int refill() {
    int made = 0;
    for (int i = 0; i < refillBatch; i++) {
      try {
        files.add(create(dir()));
        made++;
      } catch (IOException | RuntimeException e) {
        break;
      }
    }
    return made;
  }

  private Path file(Op op) throws NoTargetException {
    if (files.isEmpty()) {
      throw new NoTargetException("no file left for " + op.key());
    }
    return files.get(random.nextInt(files.size()));
  }

  private Path dir() {
    return shared != null ? shared : dirs.get(random.nextInt(dirs.size()));
  }

  private void read(Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      while (in.read(buffer) >= 0) {
        // read to the end
      }
    }
  }

  Path create(Path dir) throws IOException {
    Path p = new Path(dir, names.next('f'));
    try (OutputStream out = fs.create(p, false)) {
      writeContent(out);
    }
    return p;
  }

  private void append(Path p) throws IOException {
    try (OutputStream out = fs.append(p)) {
      writeContent(out);
    }
  }

  /** Writes {@code namespace.file-size} bytes. */
  void writeContent(OutputStream out) throws IOException {
    for (long left = fileSize; left > 0; ) {
      int n = (int) Math.min(left, buffer.length);
      out.write(buffer, 0, n);
      left -= n;
    }
  }

  private void rename() throws IOException {
    int i = index(Op.RENAME_FILE);
    Path src = files.get(i);
    Path dst = new Path(src.getParent(), names.next('r'));
    check(fs.rename(src, dst), Op.RENAME_FILE);
    files.set(i, dst);
  }

  /** One {@code getListing} of the big directory: the page after a random name. */
  private void listingPage() throws IOException {
    if (!(fs instanceof DistributedFileSystem dfs)) {
      throw new IOException("a listing page needs an HDFS client, not " + fs.getClass().getName());
    }
    String after = BigDirectory.name(random.nextLong(bigDirectoryFiles));
    DirectoryListing page =
        dfs.getClient()
            .listPaths(
                BigDirectory.PATH.toUri().getPath(),
                after.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    if (page == null) {
      throw new IOException("no listing of " + BigDirectory.PATH);
    }
  }

  /**
   * Moves one of this thread's files out of the big directory into its own tree, or (every other
   * time, when one is out) one it moved out back in under a new name.
   */
  private void renameOutOrIn() throws IOException {
    if (!renamedOut.isEmpty() && (renames++ & 1) == 1) {
      Path src = renamedOut.remove(renamedOut.size() - 1);
      Path dst = new Path(BigDirectory.PATH, names.next('r'));
      check(fs.rename(src, dst), Op.RENAME_FILE);
      bigFiles.add(dst);
      return;
    }
    int i = index(Op.RENAME_FILE);
    Path src = bigFiles.get(i);
    Path dst = new Path(dirs.get(0), names.next('o'));
    boolean moved = fs.rename(src, dst);
    bigFiles.set(i, bigFiles.get(bigFiles.size() - 1));
    bigFiles.remove(bigFiles.size() - 1);
    check(moved, Op.RENAME_FILE);
    renamedOut.add(dst);
  }

  private void delete() throws IOException {
    int i = index(Op.DELETE_FILE);
    Path p = files.get(i);
    boolean deleted = fs.delete(p, false);
    // Gone either way: deleted now, or not there (false).
    files.set(i, files.get(files.size() - 1));
    files.remove(files.size() - 1);
    check(deleted, Op.DELETE_FILE);
  }

  private int index(Op op) throws NoTargetException {
    if (files.isEmpty()) {
      throw new NoTargetException("no file left for " + op.key());
    }
    return random.nextInt(files.size());
  }

  private static void check(boolean ok, Op op) throws IOException {
    if (!ok) {
      throw new IOException(op.key() + " returned false");
    }
  }

  /** The thread has nothing to run the operation on (for example every file was deleted). */
  static final class NoTargetException extends IOException {
    private static final long serialVersionUID = 1L;

    NoTargetException(String message) {
      super(message);
    }
  }
}
