package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.line;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.sorted;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A generated history of snapshots and changes, run on hops and on Apache HDFS in the same run and
 * compared after every step (issue 60's headline test). Seeded and reproducible: the seed is
 * printed, {@code -Dhops.snapshot.history.seed=} replays one ({@code random} draws one; a build
 * replays {@link #BUILD_SEED}), {@code -Dhops.snapshot.history.steps=} sets the length (200),
 * {@code -Dhops.snapshot.history.runs=} runs that many seeds in a row (seed, seed + 1, ...) on the
 * same two systems, each under its own root, and {@code -Dhops.snapshot.history.shown=} how many of
 * the last steps a failure prints (12).
 *
 * <p>Each root holds two snapshottable directories ({@code s1}, {@code s2}) and a plain one ({@code
 * o}, for renames out and in). A step is one of: create, overwrite, append, truncate (to a block
 * boundary, inside a block, past the end), rename of a file or a directory (within a snapshottable
 * directory, across the two, out, in, onto an existing file), delete of a file or a directory,
 * mkdir, chmod, chown, setxattr, removexattr, concat, setReplication, createSnapshot (at most
 * {@link #MAX_SNAPSHOTS} per directory), renameSnapshot and deleteSnapshot, on a path of the
 * current tree or, now and then, a missing one. Its outcome (the result, or the exception's class
 * and message) must be HDFS's; after it, the recursive listing (name, type, length, permission,
 * owner, group, replication), every file's contents and every inode's xattrs, of the current tree
 * and of every snapshot through {@code .snapshot}, and the diff report between every ordered pair
 * of a directory's snapshots and the current tree must be HDFS's. Nothing is masked but what the
 * listing leaves out (inode ids, times, block ids).
 *
 * <p>Moves of files and directories a snapshot has out of a snapshottable directory and back into
 * it (or across) are generated too: HDFS's diff reports then follow the reference the rename left,
 * from the places the inode was moved away from, each with the last snapshot taken there before it
 * left, and with none at or after the later end its current place, even one it reached after the
 * later snapshot (seed 8522259346060001041 once differed there: f23 of s1 moved to s2 after snap25,
 * snap36 taken, then moved back as s1/r37; HDFS reports snap25 -> snap36 as "R ./f23 -> ./r37";
 * docs/architecture.md, "Diff reports").
 */
class SnapshotHistoryLikeHdfsTest {
  private static final long BLOCK = 1024;
  private static final int MAX_SNAPSHOTS = 3;
  private static final int MAX_FILES = 12;
  private static final String[] SNAPSHOTTABLE = {"s1", "s2"};

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshot-history", conf(), 1));

  private static Configuration conf() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    // Blocks of 1 KB, so that tiny files have several and truncates meet block boundaries.
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 512);
    return conf;
  }

  /**
   * The seed a build replays, so that a build's result does not depend on a draw: one whose history
   * once differed from HDFS's (the diff of a snapshottable directory chmodded back to its mode at
   * the earlier snapshot after a later one: HDFS compares with the current mode only). {@code
   * -Dhops.snapshot.history.seed=random} explores new histories.
   */
  private static final long BUILD_SEED = 3700769624029543910L;

  @Test
  void aGeneratedHistoryEndsAndProceedsAsInHdfs() throws Exception {
    String given = System.getProperty("hops.snapshot.history.seed", String.valueOf(BUILD_SEED));
    long seed = given.equals("random") ? new Random().nextLong() : Long.parseLong(given);
    int steps = Integer.getInteger("hops.snapshot.history.steps", 200);
    int runs = Integer.getInteger("hops.snapshot.history.runs", 1);
    for (int r = 0; r < runs; r++) {
      long s = seed + r;
      System.out.println("SnapshotHistoryLikeHdfsTest: -Dhops.snapshot.history.seed=" + s);
      long t0 = System.nanoTime();
      new History(s, "/h" + r).run(steps);
      System.out.printf(
          "SnapshotHistoryLikeHdfsTest: seed %d, %d steps in %.1f s%n",
          s, steps, (System.nanoTime() - t0) / 1e9);
    }
  }

  /** What a step does on one side: its result, compared as a string. */
  @FunctionalInterface
  private interface Action {
    Object run(DistributedFileSystem fs) throws Exception;
  }

  private record Step(String name, Action action) {}

  /** A file or directory of HDFS's current tree, as the generator sees it. */
  private record Node(String path, boolean dir, long len, long id, long parentId) {}

  /** One seed's history under {@code root}. */
  private static final class History {
    private final long seed;
    private final Random rnd;
    private final String root;
    private final List<String> done = new ArrayList<>();
    private final Map<String, List<String>> snapshots = new HashMap<>();
    private int names;

    /** HDFS's current tree after the last step, and what its snapshots have, by inode id. */
    private List<Node> tree = new ArrayList<>();

    private final Map<Long, List<String>> entriesInSnapshots = new HashMap<>();

    /** Files a snapshot had that a rename (maybe) moved out of their snapshottable directory. */
    private final java.util.Set<Long> movedOut = new java.util.HashSet<>();

    History(long seed, String root) {
      this.seed = seed;
      this.rnd = new Random(seed);
      this.root = root;
    }

    void run(int steps) throws Exception {
      List<Step> setup = new ArrayList<>();
      for (String d : SNAPSHOTTABLE) {
        setup.add(new Step("mkdir " + d, fs -> fs.mkdirs(p(root + "/" + d))));
        setup.add(new Step("allow " + d, fs -> allow(fs, root + "/" + d)));
        snapshots.put(d, new ArrayList<>());
      }
      setup.add(new Step("mkdir o", fs -> fs.mkdirs(p(root + "/o"))));
      for (Step s : setup) {
        apply(s);
      }
      for (int i = 0; i < steps; i++) {
        apply(next());
      }
    }

    private static Object allow(DistributedFileSystem fs, String dir) throws IOException {
      fs.allowSnapshot(p(dir));
      return "allowed";
    }

    private void apply(Step step) throws Exception {
      String hdfs = outcome(step.action(), both.hdfsSide().admin());
      String hops = outcome(step.action(), both.hopsSide().admin());
      done.add(step.name() + " -> " + hdfs);
      if (!hdfs.equals(hops)) {
        throw new AssertionError(
            report("the step's outcome", List.of("hops: " + hops), List.of("hdfs: " + hdfs)));
      }
      if (!hdfs.startsWith("!")) {
        afterSuccess(step.name());
      }
      List<String> hdfsView = view(both.hdfsSide().admin(), true);
      List<String> hopsView = view(both.hopsSide().admin(), false);
      if (!hdfsView.equals(hopsView)) {
        throw new AssertionError(report("the state after it", hopsView, hdfsView));
      }
    }

    /** Keeps the generator's list of snapshots: names in creation order. */
    private void afterSuccess(String name) {
      String[] w = name.split(" ");
      switch (w[0]) {
        case "createSnapshot" -> snapshots.get(w[1]).add(w[2]);
        case "deleteSnapshot" -> snapshots.get(w[1]).remove(w[2]);
        case "renameSnapshot" -> {
          List<String> l = snapshots.get(w[1]);
          l.set(l.indexOf(w[2]), w[3]);
        }
        default -> {}
      }
    }

    private String report(String what, List<String> hops, List<String> hdfs) {
      int i = 0;
      while (i < hops.size() && i < hdfs.size() && hops.get(i).equals(hdfs.get(i))) {
        i++;
      }
      StringBuilder b = new StringBuilder();
      b.append("hops and HDFS differ in ")
          .append(what)
          .append(" after step ")
          .append(done.size())
          .append(" of seed ")
          .append(seed)
          .append(" (-Dhops.snapshot.history.seed=")
          .append(seed)
          .append("), the last steps:\n");
      for (String s :
          done.subList(
              Math.max(0, done.size() - Integer.getInteger("hops.snapshot.history.shown", 12)),
              done.size())) {
        b.append("  ").append(s).append('\n');
      }
      b.append("first difference, line ").append(i).append(":\n");
      for (int k = Math.max(0, i - 3); k < i; k++) {
        b.append("  both: ").append(hops.get(k)).append('\n');
      }
      b.append("  hops: ").append(i < hops.size() ? hops.get(i) : "(end)").append('\n');
      b.append("  hdfs: ").append(i < hdfs.size() ? hdfs.get(i) : "(end)").append('\n');
      return b.toString();
    }

    // ---- the generator ----

    private Step next() {
      while (true) {
        Step s = candidate(rnd.nextInt(100));
        if (s != null) {
          return s;
        }
      }
    }

    private Step candidate(int roll) {
      List<Node> files = nodes(false);
      List<Node> dirs = nodes(true);
      if (files.size() > MAX_FILES && roll < 60) {
        roll = 60 + rnd.nextInt(6); // delete something
      }
      if (roll < 10) {
        String path = pick(dirs).path() + "/" + fresh("f");
        String data = text(path, rnd.nextInt(2600));
        return new Step("create " + path + " " + data.length(), fs -> write(fs, path, data, false));
      } else if (roll < 14) {
        Node f = pick(files);
        if (f == null) {
          return null;
        }
        String data = text(f.path() + done.size(), rnd.nextInt(2600));
        return new Step(
            "overwrite " + f.path() + " " + data.length(), fs -> write(fs, f.path(), data, true));
      } else if (roll < 16) {
        Node f = pick(files);
        String data = "x";
        String path = f == null ? missing() : f.path();
        return new Step("create without overwrite " + path, fs -> write(fs, path, data, false));
      } else if (roll < 24) {
        String path = rnd.nextInt(10) == 0 ? missing() : pathOf(pick(files));
        String data = text("app" + done.size(), 1 + rnd.nextInt(1500));
        return new Step("append " + path + " " + data.length(), fs -> append(fs, path, data));
      } else if (roll < 32) {
        return truncation(pick(files));
      } else if (roll < 42) {
        return rename(pick(files));
      } else if (roll < 46) {
        return rename(pick(dirs));
      } else if (roll < 52) {
        return mkdir(pick(dirs));
      } else if (roll < 60) {
        return attributes(roll, rnd.nextBoolean() ? pick(files) : pick(dirs));
      } else if (roll < 66) {
        Node n = rnd.nextInt(3) == 0 ? pick(dirs) : pick(files);
        if (n == null || isTop(n)) {
          return null;
        }
        boolean recursive = rnd.nextInt(4) != 0;
        return new Step(
            "delete " + n.path() + (recursive ? " -r" : ""),
            fs -> fs.delete(p(n.path()), recursive));
      } else if (roll < 70) {
        return xattr(rnd.nextBoolean() ? pick(files) : pick(dirs));
      } else if (roll < 73) {
        return concat(files);
      } else if (roll < 76) {
        Node f = pick(files);
        short r = (short) (1 + rnd.nextInt(2));
        String path = pathOf(f);
        return new Step("setReplication " + path + " " + r, fs -> fs.setReplication(p(path), r));
      } else if (roll < 88) {
        return createSnapshot();
      } else if (roll < 91) {
        return renameSnapshot();
      } else {
        return deleteSnapshot();
      }
    }

    private Step truncation(Node f) {
      if (f == null || movedOut.contains(f.id())) {
        return null; // HDFS 3.5.0 then fails to read it at the snapshot (see the class comment)
      }
      long len;
      int kind = rnd.nextInt(5);
      if (kind == 0) {
        len = f.len() + 1 + rnd.nextInt(10); // past the end: refused
      } else if (kind == 1) {
        len = (f.len() / BLOCK) * BLOCK; // a block boundary
      } else {
        len = f.len() == 0 ? 0 : rnd.nextInt((int) f.len() + 1);
      }
      long to = len;
      return new Step(
          "truncate " + f.path() + " " + to + " of " + f.len(), fs -> truncate(fs, f.path(), to));
    }

    private Step rename(Node n) {
      if (n == null || isTop(n)) {
        return null;
      }
      List<Node> dirs = nodes(true);
      Node to = pick(dirs);
      if (n.dir() && (to.path() + "/").startsWith(n.path() + "/")) {
        to = dirs.get(0);
      }
      String dest;
      boolean overwrite = false;
      List<Node> files = nodes(false);
      if (!n.dir() && rnd.nextInt(4) == 0 && files.size() > 1) {
        Node victim = pick(files);
        dest = victim.path();
        overwrite = rnd.nextBoolean();
      } else {
        dest = to.path() + "/" + fresh(n.dir() ? "d" : "r");
      }
      String src = n.path();
      if (!topOf(src).equals(topOf(dest))) {
        for (Node m : tree) {
          if ((m.path().equals(src) || m.path().startsWith(src + "/"))
              && entriesInSnapshots.containsKey(m.id())) {
            movedOut.add(m.id());
          }
        }
      }
      if (overwrite) {
        return new Step(
            "rename -overwrite " + src + " " + dest,
            fs -> {
              fs.rename(p(src), p(dest), Options.Rename.OVERWRITE);
              return "renamed";
            });
      }
      return new Step("rename " + src + " " + dest, fs -> fs.rename(p(src), p(dest)));
    }

    private Step mkdir(Node parent) {
      String path = parent.path() + "/" + fresh("d");
      if (rnd.nextInt(5) == 0) {
        path = path + "/" + fresh("d");
      }
      String d = path;
      return new Step("mkdir " + d, fs -> fs.mkdirs(p(d)));
    }

    private Step attributes(int roll, Node n) {
      String path = rnd.nextInt(15) == 0 ? missing() : pathOf(n);
      if (roll < 56) {
        short mode = (short) new int[] {0755, 0700, 0644, 0600, 0711, 0750}[rnd.nextInt(6)];
        return new Step(
            "chmod " + path + " " + Integer.toOctalString(mode),
            fs -> {
              fs.setPermission(p(path), new FsPermission(mode));
              return "set";
            });
      }
      String[] owner =
          rnd.nextBoolean() ? new String[] {"alice", "staff"} : new String[] {"bob", "g"};
      return new Step(
          "chown " + path + " " + owner[0],
          fs -> {
            fs.setOwner(p(path), owner[0], owner[1]);
            return "set";
          });
    }

    private Step xattr(Node n) {
      if (n == null) {
        return null;
      }
      String name = "user.a" + rnd.nextInt(2);
      if (rnd.nextInt(3) == 0) {
        return new Step(
            "removexattr " + n.path() + " " + name,
            fs -> {
              fs.removeXAttr(p(n.path()), name);
              return "removed";
            });
      }
      byte[] value = ("v" + done.size()).getBytes(StandardCharsets.UTF_8);
      EnumSet<XAttrSetFlag> flags =
          rnd.nextInt(4) == 0
              ? EnumSet.of(XAttrSetFlag.REPLACE)
              : EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE);
      return new Step(
          "setxattr " + n.path() + " " + name + " " + flags,
          fs -> {
            fs.setXAttr(p(n.path()), name, value, flags);
            return "set";
          });
    }

    private Step concat(List<Node> files) {
      Node target = pick(files);
      if (target == null) {
        return null;
      }
      String parent = parentOf(target.path());
      List<Node> siblings = new ArrayList<>();
      for (Node f : files) {
        if (f != target && parentOf(f.path()).equals(parent)) {
          siblings.add(f);
        }
      }
      if (siblings.isEmpty()) {
        return null;
      }
      Node src = pick(siblings);
      Path[] srcs = {p(src.path())};
      return new Step(
          "concat " + target.path() + " " + src.path(),
          fs -> {
            fs.concat(p(target.path()), srcs);
            return "concatenated";
          });
    }

    private Step createSnapshot() {
      String d = SNAPSHOTTABLE[rnd.nextInt(SNAPSHOTTABLE.length)];
      List<String> l = snapshots.get(d);
      if (l.size() >= MAX_SNAPSHOTS) {
        return deleteSnapshot(d, l.get(0));
      }
      String name = rnd.nextInt(12) == 0 && !l.isEmpty() ? pick(l) : fresh("snap");
      return new Step(
          "createSnapshot " + d + " " + name,
          fs -> fs.createSnapshot(p(root + "/" + d), name).toString());
    }

    private Step renameSnapshot() {
      String d = SNAPSHOTTABLE[rnd.nextInt(SNAPSHOTTABLE.length)];
      List<String> l = snapshots.get(d);
      String from = l.isEmpty() || rnd.nextInt(10) == 0 ? "nosuch" : pick(l);
      String to = rnd.nextInt(8) == 0 && !l.isEmpty() ? pick(l) : fresh("snap");
      return new Step(
          "renameSnapshot " + d + " " + from + " " + to,
          fs -> {
            fs.renameSnapshot(p(root + "/" + d), from, to);
            return "renamed";
          });
    }

    private Step deleteSnapshot() {
      String d = SNAPSHOTTABLE[rnd.nextInt(SNAPSHOTTABLE.length)];
      List<String> l = snapshots.get(d);
      return deleteSnapshot(d, l.isEmpty() || rnd.nextInt(10) == 0 ? "nosuch" : pick(l));
    }

    private Step deleteSnapshot(String d, String name) {
      return new Step(
          "deleteSnapshot " + d + " " + name,
          fs -> {
            fs.deleteSnapshot(p(root + "/" + d), name);
            return "deleted";
          });
    }

    /** The snapshottable directories and the plain one are the fixed frame of the history. */
    private boolean isTop(Node n) {
      return parentOf(n.path()).equals(root);
    }

    /**
     * Whether a snapshot has this file under another entry (parent and name) than its current one,
     * which hops cannot yet keep it for (see the class comment).
     */
    private boolean referencedElsewhere(Node f) {
      List<String> entries = entriesInSnapshots.get(f.id());
      if (f.dir() || entries == null) {
        return false;
      }
      String here = f.parentId() + "/" + nameOf(f.path());
      return entries.stream().anyMatch(e -> !e.equals(here));
    }

    /** The directory right below the root that {@code path} is in (s1, s2 or o). */
    private String topOf(String path) {
      String rest = path.substring(root.length() + 1);
      int slash = rest.indexOf('/');
      return slash < 0 ? rest : rest.substring(0, slash);
    }

    private List<Node> nodes(boolean dirs) {
      List<Node> out = new ArrayList<>();
      for (Node n : tree) {
        if (n.dir() == dirs) {
          out.add(n);
        }
      }
      return out;
    }

    private <T> T pick(List<T> l) {
      return l.isEmpty() ? null : l.get(rnd.nextInt(l.size()));
    }

    private String pathOf(Node n) {
      return n == null ? missing() : n.path();
    }

    private String missing() {
      return root + "/" + SNAPSHOTTABLE[rnd.nextInt(2)] + "/" + fresh("missing");
    }

    private String fresh(String prefix) {
      return prefix + (++names);
    }

    // ---- what is compared ----

    /**
     * Everything compared after a step, a line each; on HDFS's side ({@code model}) also what the
     * generator needs: the current tree and, by inode id, where snapshots have each file.
     */
    private List<String> view(DistributedFileSystem fs, boolean model) throws IOException {
      List<String> out = new ArrayList<>();
      List<Node> nodes = new ArrayList<>();
      long rootId = model ? ((HdfsFileStatus) fs.getFileStatus(p(root))).getFileId() : 0;
      walk(fs, root, rootId, out, nodes);
      if (model) {
        tree = nodes;
        entriesInSnapshots.clear();
      }
      for (String d : SNAPSHOTTABLE) {
        String dir = root + "/" + d;
        List<String> names = new ArrayList<>();
        FileStatus[] listing;
        try {
          listing = fs.listStatus(p(dir + "/.snapshot"));
        } catch (IOException e) {
          out.add(dir + "/.snapshot: " + SideBySide.failure(e));
          continue;
        }
        for (FileStatus s : sorted(listing)) {
          String name = s.getPath().getName();
          names.add(name);
          String at = dir + "/.snapshot/" + name;
          out.add(line(s, at) + " xattrs=" + outcome(f -> xattrs(f, at), fs));
          List<Node> in = new ArrayList<>();
          long dirId = model ? ((HdfsFileStatus) fs.getFileStatus(p(dir))).getFileId() : 0;
          walk(fs, dir + "/.snapshot/" + name, dirId, out, in);
          if (model) {
            for (Node n : in) {
              entriesInSnapshots
                  .computeIfAbsent(n.id(), k -> new ArrayList<>())
                  .add(n.parentId() + "/" + nameOf(n.path()));
            }
          }
        }
        names.add("");
        for (String from : names) {
          for (String to : names) {
            if (!from.equals(to)) {
              out.add(diff(fs, dir, from, to));
            }
          }
        }
      }
      return out;
    }

    private void walk(
        DistributedFileSystem fs, String dir, long dirId, List<String> out, List<Node> nodes)
        throws IOException {
      for (FileStatus c : sorted(fs.listStatus(p(dir)))) {
        String path = dir + "/" + c.getPath().getName();
        long id = c instanceof HdfsFileStatus h ? h.getFileId() : 0;
        nodes.add(new Node(path, c.isDirectory(), c.getLen(), id, dirId));
        StringBuilder b = new StringBuilder(line(c, path));
        b.append(" xattrs=").append(outcome(f -> xattrs(f, path), fs));
        if (!c.isDirectory()) {
          b.append(" data=").append(outcome(f -> contents(f, path), fs));
        }
        out.add(b.toString());
        if (c.isDirectory()) {
          walk(fs, path, id, out, nodes);
        }
      }
    }
  }

  // ---- the two sides' calls, alike ----

  private static Path p(String path) {
    return new Path(path);
  }

  private static Object write(DistributedFileSystem fs, String path, String data, boolean over)
      throws IOException {
    try (FSDataOutputStream out = fs.create(p(path), over, 4096, (short) 1, BLOCK)) {
      out.writeBytes(data);
    }
    return "written";
  }

  private static Object append(DistributedFileSystem fs, String path, String data)
      throws IOException {
    try (FSDataOutputStream out = fs.append(p(path))) {
      out.writeBytes(data);
    }
    return "appended";
  }

  /** Truncates, and waits for the recovery of a block cut inside as HDFS's tests do. */
  private static Object truncate(DistributedFileSystem fs, String path, long len) throws Exception {
    boolean ready = fs.truncate(p(path), len);
    long deadline = System.currentTimeMillis() + 30_000;
    while (!ready && !fs.isFileClosed(p(path))) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("truncate's recovery did not end: " + path);
      }
      Thread.sleep(20);
    }
    return ready;
  }

  private static String xattrs(DistributedFileSystem fs, String path) throws IOException {
    StringBuilder b = new StringBuilder("{");
    for (Map.Entry<String, byte[]> e : new TreeMap<>(fs.getXAttrs(p(path))).entrySet()) {
      b.append(e.getKey()).append('=').append(new String(e.getValue(), StandardCharsets.UTF_8));
      b.append(';');
    }
    return b.append('}').toString();
  }

  private static String contents(DistributedFileSystem fs, String path) throws IOException {
    try (InputStream in = fs.open(p(path))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      CRC32 crc = new CRC32();
      crc.update(out.toByteArray());
      return out.size() + " bytes, crc " + Long.toHexString(crc.getValue());
    }
  }

  private static String diff(DistributedFileSystem fs, String dir, String from, String to) {
    String call = "diff " + dir + " '" + from + "' -> '" + to + "': ";
    return call + outcome(f -> f.getSnapshotDiffReport(p(dir), from, to).toString(), fs);
  }

  private static String parentOf(String path) {
    return path.substring(0, path.lastIndexOf('/'));
  }

  private static String nameOf(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static String outcome(Action a, DistributedFileSystem fs) {
    try {
      return String.valueOf(a.run(fs));
    } catch (Exception e) {
      return "!" + SideBySide.failure(e);
    }
  }
}
