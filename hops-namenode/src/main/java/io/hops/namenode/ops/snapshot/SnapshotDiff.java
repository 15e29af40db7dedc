package io.hops.namenode.ops.snapshot;

import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport.DiffReportEntry;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport.DiffType;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing.DiffReportListingEntry;

/**
 * A snapshot diff report (HDFS DirectorySnapshottableFeature.computeDiff, SnapshotDiffInfo and
 * SnapshotDiffListingInfo) from hops's rows (docs/architecture.md, "Snapshots"): the walk compares
 * the tree at the earlier snapshot with the tree at the later one (or the current tree), one
 * directory per read-committed transaction ({@link SnapshotDiffDirectory}: its live children and
 * its versions, from which its children at both ends follow). A directory keeps its inode id, and
 * its children are keyed by it, so a directory in both trees is compared wherever it is in each.
 *
 * <p>HDFS's rules: a child whose name maps to another inode (or to none) at the two ends, or to one
 * that left the entry by a rename in between while a snapshot had it there, is created or deleted;
 * a deleted child that so left its entry (HDFS's WithName) is a rename, reported where it was
 * deleted, by its earlier path, to where HDFS's findRenameTargetPath finds it ({@link
 * SnapshotDiffTarget}), else to where it was created in a walked directory; the walk goes down the
 * directories in both trees (also renamed ones, by their earlier path) and not into created or
 * deleted ones. A directory is modified when its children or its mode, owner or group changed; a
 * file when its length, mode, owner, group, replication, block size or storage policy did (times do
 * not count, as in HDFS); either when its xattrs or ACL did ({@link SnapshotAttributes#same}).
 * Quotas are not compared: versions do not keep them, nor the snapshottable directory's own xattrs.
 *
 * <p>Order: HDFS sorts the modified inodes by depth, then by their (current) path's components as
 * signed bytes (SnapshotDiffInfo.INODE_COMPARATOR); each directory's created then deleted children
 * follow it, by name. The listing form's client sorts the modified entries itself.
 */
public final class SnapshotDiff {
  /**
   * A directory or file in both trees: its path in the walk (earlier) and in the later tree; {@code
   * full} when every directory below it is read, not only those {@link SnapshotDiffChanges} names.
   */
  private record Node(
      long id,
      boolean dir,
      List<String> path,
      List<String> laterPath,
      InodeRow e,
      InodeRow l,
      Since since,
      boolean full) {
    Node(
        long id,
        boolean dir,
        List<String> path,
        List<String> laterPath,
        InodeRow e,
        InodeRow l,
        boolean full) {
      this(id, dir, path, laterPath, e, l, Since.NONE, full);
    }
  }

  /**
   * Whether a directory changed between the two ends ({@code touched}: it has a version between
   * them), and its latest state ({@code now}, null when the later end is the current tree): HDFS
   * compares its state at the earlier end with that one too
   * (DirectoryWithSnapshotFeature.computeDiffBetweenSnapshots), so a chmod after the later end
   * marks it modified, and a chmod undone before now does not (HDFS's loop over the states at the
   * snapshots after the later end indexes a sublist past its end and never runs).
   */
  record Since(boolean touched, InodeRow now) {
    static final Since NONE = new Since(false, null);
  }

  /** A child created or deleted in a walked directory ({@code full}: as its {@link Node}). */
  private record Change(
      long dirId,
      List<String> dirPath,
      List<String> dirLaterPath,
      String name,
      InodeRow row,
      boolean full) {
    byte[][] path() {
      return bytes(with(dirPath, name));
    }
  }

  /** A changed node, and for a directory its created and deleted children. */
  private record Changed(Node node, List<Change> created, List<Change> deleted) {}

  /** Where a renamed inode is in the later tree (HDFS's findRenameTargetPath). */
  private record Target(List<String> later) {}

  private final SnapshotDiffScope.Scope scope;
  private final Directories directories;

  /**
   * The directories whose children can differ between the ends, and those above them ({@link
   * SnapshotDiffChanges}); null: every directory is read.
   */
  private final SnapshotDiffChanges.Walked walked;

  private final List<Changed> changed = new ArrayList<>();
  private final Map<Long, Change> deleted = new HashMap<>();
  private final Map<Long, Change> created = new HashMap<>();
  private final Map<Long, Target> renamed = new HashMap<>();
  private final Deque<Node> common = new ArrayDeque<>();

  /** {@link #listingOrder}, once sorted. */
  private List<Changed> listingOrder;

  /** Rename sources (HDFS's WithName) whose inode HDFS finds only where it was created, by id. */
  private final Map<Long, Change> pending = new HashMap<>();

  /** The inodes in both trees whose xattrs or ACL differ between the ends. */
  private final Set<Long> attributesChanged = new HashSet<>();

  /** The attributes of deleted and created children at the end that has them, by inode id. */
  private final Map<Long, List<XAttrRow>> deletedAttributes = new HashMap<>();

  private final Map<Long, List<XAttrRow>> createdAttributes = new HashMap<>();

  /**
   * Reads a directory's rows, in a transaction of its own: all its children ({@code walkedChildren}
   * null), or sparsely (those with versions from the earlier end on, and those named).
   */
  @FunctionalInterface
  interface Directories {
    SnapshotDiffDirectory.Rows read(long id, Set<String> walkedChildren) throws IOException;
  }

  /** Reads one entry's rows (its directory's, of that name), in a transaction of its own. */
  @FunctionalInterface
  interface Entries {
    SnapshotDiffDirectory.Rows read(long parentId, String name) throws IOException;
  }

  /**
   * Follows a renamed inode to the later end ({@link SnapshotDiffTarget}), in its own transaction.
   */
  @FunctionalInterface
  interface Targets {
    SnapshotDiffTarget.Found read(long inodeId) throws IOException;
  }

  private final Entries entries;
  private final Targets targets;

  private SnapshotDiff(
      SnapshotDiffScope.Scope scope,
      SnapshotDiffChanges.Walked walked,
      Directories directories,
      Entries entries,
      Targets targets) {
    this.scope = scope;
    this.walked = walked;
    this.directories = directories;
    this.entries = entries;
    this.targets = targets;
  }

  /**
   * The walk of {@code scope}, each directory read in a transaction of {@code runner}: the
   * directories the snapshottable directory's version log names from the earlier end on, and those
   * above them, unless the log cannot say ({@link SnapshotDiffChanges}, {@link
   * SnapshotDiffScope.Scope#belowHold}).
   */
  public static SnapshotDiff compute(TransactionRunner runner, SnapshotDiffScope.Scope scope)
      throws IOException {
    SnapshotDiffChanges.Walked walked =
        scope.empty() || scope.belowHold()
            ? null
            : runner.run(() -> new SnapshotDiffChanges(scope.snapshottableId(), scope.earlier()));
    return compute(
        scope,
        walked,
        (id, walkedChildren) ->
            runner.run(
                () ->
                    walkedChildren == null
                        ? new SnapshotDiffDirectory(id, null, scope.earlier())
                        : SnapshotDiffDirectory.sparse(id, walkedChildren, scope.earlier())),
        (parentId, name) ->
            runner.run(() -> new SnapshotDiffDirectory(parentId, name, scope.earlier())),
        id -> runner.run(() -> new SnapshotDiffTarget(id, scope.later(), scope.scopeId())));
  }

  /** getSnapshotDiffReport, the walk then the report: {@link #report(Map)}. */
  public static SnapshotDiffReport report(TransactionRunner runner, SnapshotDiffScope.Scope scope)
      throws IOException {
    SnapshotDiff d = compute(runner, scope);
    List<Long> ids = d.changedIds();
    return d.report(ids.isEmpty() ? Map.of() : runner.run(() -> new SnapshotDiffPlaces(ids)));
  }

  static SnapshotDiff compute(
      SnapshotDiffScope.Scope scope,
      SnapshotDiffChanges.Walked walked,
      Directories directories,
      Entries entries,
      Targets targets)
      throws IOException {
    SnapshotDiff d = new SnapshotDiff(scope, walked, directories, entries, targets);
    if (!scope.empty()) {
      d.walk();
    }
    return d;
  }

  private void walk() throws IOException {
    if (scope.ownAttributesChanged()) {
      attributesChanged.add(scope.scopeId());
    }
    InodeRow root = scope.atEarlier();
    if (!scope.touched() && root != null && scope.atLater() != null) {
      // A subtree's directory: its xattrs and ACL at both ends, from its own entry's rows.
      compareAttributes(
          entries.read(root.parentId(), root.name()), root.name(), root, scope.atLater());
    }
    common.add(
        new Node(
            scope.scopeId(),
            true,
            List.of(),
            List.of(),
            scope.atEarlier(),
            scope.atLater(),
            new Since(scope.touched(), scope.now()),
            walked == null));
    while (!common.isEmpty()) {
      visitCommon(common.poll());
    }
  }

  /** A directory in both trees: its children at both ends, by name. */
  private void visitCommon(Node dir) throws IOException {
    SnapshotDiffDirectory.Rows rows =
        directories.read(dir.id(), dir.full() ? null : walked.childrenOf(dir.id()));
    Map<String, InodeRow> e = byName(rows.childrenAt(scope.earlier()));
    Map<String, InodeRow> l = byName(rows.childrenAt(scope.later()));
    Map<String, InodeRow> live = new HashMap<>();
    TreeSet<String> names = new TreeSet<>(e.keySet());
    names.addAll(l.keySet());
    List<Change> c = new ArrayList<>();
    List<Change> d = new ArrayList<>();
    for (String name : names) {
      InodeRow before = e.get(name);
      InodeRow after = l.get(name);
      // HDFS's WithName: the inode left the entry while a snapshot had it there, even if back.
      boolean left =
          before != null && rows.leftBetween(name, before.id(), scope.earlier(), scope.later());
      if (before != null && after != null && before.id() == after.id() && !left) {
        compareAttributes(rows, name, before, after);
        both(
            new Node(
                before.id(),
                before.isDir(),
                with(dir.path(), name),
                with(dir.laterPath(), name),
                before,
                after,
                before.isDir() ? since(rows, name, after) : Since.NONE,
                dir.full() || before.isDir() && held(liveChild(live, rows, name, before.id()))));
        continue;
      }
      Change gone = null;
      if (before != null) {
        keepAttributes(deletedAttributes, rows.attributesAt(name, before, scope.earlier()), before);
        gone = new Change(dir.id(), dir.path(), dir.laterPath(), name, before, dir.full());
        d.add(gone);
        deleted.put(before.id(), gone);
      }
      if (after != null) {
        keepAttributes(createdAttributes, rows.attributesAt(name, after, scope.later()), after);
        Change ch = new Change(dir.id(), dir.path(), dir.laterPath(), name, after, dir.full());
        c.add(ch);
        created.put(after.id(), ch);
        Change from = pending.remove(after.id());
        if (from != null) {
          rename(from, with(dir.laterPath(), name), after);
        }
      }
      if (left) {
        follow(gone);
      }
    }
    if (!c.isEmpty() || !d.isEmpty() || metadataChanged(dir)) {
      changed.add(new Changed(dir, sorted(c), sorted(d)));
    }
  }

  /**
   * A rename's source (HDFS's WithName, {@code from}): where HDFS's findRenameTargetPath finds its
   * inode at the later end ({@link SnapshotDiffTarget}), the walk going on inside as for any inode
   * in both trees; where it finds none, the place it was created in a walked directory, if any
   * (HDFS's created reference), else a deletion.
   */
  private void follow(Change from) throws IOException {
    long id = from.row().id();
    SnapshotDiffTarget.Found t = targets.read(id);
    if (t.path() == null) {
      Change to = created.get(id);
      if (to != null) {
        rename(from, with(to.dirLaterPath(), to.name()), to.row());
      } else {
        pending.put(id, from);
      }
      return;
    }
    renamed.put(id, new Target(t.path()));
    InodeRow after = t.atLater() == null ? from.row() : t.atLater();
    if (!SnapshotAttributes.same(deletedAttributes.getOrDefault(id, List.of()), t.attributes())) {
      attributesChanged.add(id);
    }
    // Below a directory held by a move, versions are logged under it, not the snapshottable one.
    both(
        new Node(
            id,
            after.isDir(),
            with(from.dirPath(), from.name()),
            t.path(),
            from.row(),
            after,
            from.full() || held(t.live())));
  }

  /** {@code from} is at {@code laterPath} in the later tree: a rename; the walk goes on inside. */
  private void rename(Change from, List<String> laterPath, InodeRow after) {
    renamed.put(after.id(), new Target(laterPath));
    if (!SnapshotAttributes.same(
        deletedAttributes.getOrDefault(after.id(), List.of()),
        createdAttributes.getOrDefault(after.id(), List.of()))) {
      attributesChanged.add(after.id());
    }
    // Its live row is not read here: every directory below it is, as where it may be held.
    both(
        new Node(
            after.id(),
            after.isDir(),
            with(from.dirPath(), from.name()),
            laterPath,
            from.row(),
            after,
            true));
  }

  /**
   * Whether entry {@code name}'s inode has other xattrs or another ACL at the later end than at the
   * earlier one; for a directory also than now, when it changed between the ends (as {@link
   * Since}).
   */
  private void compareAttributes(
      SnapshotDiffDirectory.Rows rows, String name, InodeRow before, InodeRow after) {
    List<XAttrRow> e = rows.attributesAt(name, before, scope.earlier());
    boolean changed = !SnapshotAttributes.same(e, rows.attributesAt(name, after, scope.later()));
    if (!changed && before.isDir() && scope.later() != SnapshotDiffScope.CURRENT) {
      for (InodeRow r : rows.live()) {
        if (r.name().equals(name) && r.id() == before.id()) {
          changed =
              since(rows, name, after).touched()
                  && !SnapshotAttributes.same(
                      e, rows.attributesAt(name, r, SnapshotDiffScope.CURRENT));
        }
      }
    }
    if (changed) {
      attributesChanged.add(before.id());
    }
  }

  /** Keeps the attributes of a deleted or created child, for a rename's comparison. */
  private static void keepAttributes(
      Map<Long, List<XAttrRow>> into, List<XAttrRow> attributes, InodeRow row) {
    if (!attributes.isEmpty()) {
      into.put(row.id(), attributes);
    }
  }

  /**
   * An inode in both trees: a directory to walk (one the log names no change below has the same
   * children at both ends, so only its own state is compared), or a file to compare.
   */
  private void both(Node n) {
    if (n.dir() && (n.full() || walked.ids().contains(n.id()))) {
      common.add(n);
    } else if (n.dir()) {
      if (metadataChanged(n)) {
        changed.add(new Changed(n, List.of(), List.of()));
      }
    } else if (!sameFile(n.e(), n.l()) || attributesChanged.contains(n.id())) {
      changed.add(new Changed(n, List.of(), List.of()));
    }
  }

  /**
   * The versions of entry {@code name} of a walked directory, for {@link Since}: its latest state
   * is its live row, or, when it is in no live directory any more, its last version kept.
   */
  private Since since(SnapshotDiffDirectory.Rows rows, String name, InodeRow live) {
    boolean touched = false;
    InodeVersionRow last = null;
    for (InodeVersionRow v : rows.versions()) {
      if (!v.name().equals(name)) {
        continue;
      }
      if (v.snapshotId() >= scope.earlier() && v.snapshotId() < scope.later()) {
        touched = true;
      } else if (v.snapshotId() >= scope.later()
          && v.present()
          && (last == null || v.snapshotId() > last.snapshotId())) {
        last = v;
      }
    }
    if (scope.later() == SnapshotDiffScope.CURRENT) {
      return new Since(touched, null);
    }
    for (InodeRow r : rows.live()) {
      if (r.name().equals(name) && r.id() == live.id()) {
        return new Since(touched, r);
      }
    }
    return new Since(touched, last == null ? null : last.toInode(live.partitionId()));
  }

  /**
   * A directory held by a move out of its snapshots' reach ({@code snapshot_id} its hold): the
   * versions below it are logged under it (docs/architecture.md, "Snapshots", holds).
   */
  static boolean held(InodeRow r) {
    return r != null && r.isDir() && !r.snapshottable() && r.snapshotId() != 0;
  }

  /**
   * The live child {@code name} of a walked directory, if it is inode {@code id}; {@code live}
   * indexes the directory's live rows by name, filled on first use.
   */
  private static InodeRow liveChild(
      Map<String, InodeRow> live, SnapshotDiffDirectory.Rows rows, String name, long id) {
    if (live.isEmpty()) {
      for (InodeRow r : rows.live()) {
        if (r.parentId() == rows.id()) {
          live.put(r.name(), r);
        }
      }
    }
    InodeRow r = live.get(name);
    return r != null && r.id() == id ? r : null;
  }

  private boolean metadataChanged(Node dir) {
    if (!sameDirectory(dir.e(), dir.l()) || attributesChanged.contains(dir.id())) {
      return true;
    }
    return dir.since().touched() && !sameDirectory(dir.e(), dir.since().now());
  }

  /** HDFS's INodeDirectoryAttributes.metadataEquals, of what versions keep. */
  private static boolean sameDirectory(InodeRow a, InodeRow b) {
    return a == null
        || b == null
        || ((a.permission() & InodeFlags.MODE) == (b.permission() & InodeFlags.MODE)
            && a.userId() == b.userId()
            && a.groupId() == b.groupId());
  }

  /** FileWithSnapshotFeature.changedBetweenSnapshots: the length, then the metadata. */
  private static boolean sameFile(InodeRow a, InodeRow b) {
    return a.size() == b.size()
        && (a.permission() & InodeFlags.MODE) == (b.permission() & InodeFlags.MODE)
        && a.userId() == b.userId()
        && a.groupId() == b.groupId()
        && a.replication() == b.replication()
        && a.preferredBlockSize() == b.preferredBlockSize()
        && a.storagePolicy() == b.storagePolicy()
        && java.util.Objects.equals(a.symlink(), b.symlink());
  }

  /** The changed nodes in the order of their paths in {@code places} (by id). */
  private List<Changed> ordered(Map<Long, List<String>> places) {
    List<Changed> out = new ArrayList<>(changed);
    out.sort(
        Comparator.comparing(
            ch -> places.getOrDefault(ch.node().id(), ch.node().laterPath()),
            SnapshotDiff::compareDepthFirst));
    return out;
  }

  /** The changed nodes in the listing's order, sorted once for all the pages of one walk. */
  private synchronized List<Changed> listingOrder() {
    if (listingOrder == null) {
      listingOrder = List.copyOf(ordered(Map.of()));
    }
    return listingOrder;
  }

  /**
   * How much this walk holds: its changed directories and the entries created, deleted and renamed
   * below them (what a kept walk costs the namenode's heap, about a few hundred bytes each).
   */
  int entries() {
    int n = changed.size() + created.size() + deleted.size() + renamed.size();
    for (Changed ch : changed) {
      n += ch.created().size() + ch.deleted().size();
    }
    return n;
  }

  /** The ids of the changed nodes, whose current places order HDFS's report. */
  List<Long> changedIds() {
    List<Long> out = new ArrayList<>();
    for (Changed ch : changed) {
      out.add(ch.node().id());
    }
    return out;
  }

  /**
   * getSnapshotDiffReport: the whole report, in HDFS's order (SnapshotDiffInfo's, by each modified
   * inode's place in the current tree: {@code current}, from the root, by id; one not there sorts
   * by its place in the later tree below the directory's path).
   */
  public SnapshotDiffReport report(Map<Long, List<String>> current) {
    if (scope.empty()) {
      return new SnapshotDiffReport(scope.path(), scope.from(), scope.to(), List.of());
    }
    boolean fwd = scope.fromEarlier();
    List<DiffReportEntry> out = new ArrayList<>();
    Map<Long, List<String>> places = new HashMap<>();
    List<String> base = components(utf8(scope.path()));
    for (Changed ch : changed) {
      List<String> p = current.get(ch.node().id());
      if (p == null) {
        p = new ArrayList<>(base);
        p.addAll(ch.node().laterPath());
      }
      places.put(ch.node().id(), p);
    }
    for (Changed ch : ordered(places)) {
      out.add(new DiffReportEntry(DiffType.MODIFY, bytes(ch.node().path()), null));
      for (Change c : ch.created()) {
        if (!renamed.containsKey(c.row().id())) {
          out.add(new DiffReportEntry(fwd ? DiffType.CREATE : DiffType.DELETE, c.path()));
        }
      }
      for (Change d : ch.deleted()) {
        Target t = renamed.get(d.row().id());
        if (t != null) {
          byte[][] target = bytes(t.later());
          out.add(
              new DiffReportEntry(
                  DiffType.RENAME, fwd ? d.path() : target, fwd ? target : d.path()));
        } else {
          out.add(new DiffReportEntry(fwd ? DiffType.DELETE : DiffType.CREATE, d.path()));
        }
      }
    }
    return new SnapshotDiffReport(scope.rootPath(), scope.from(), scope.to(), out);
  }

  /**
   * getSnapshotDiffReportListing: at most {@code limit} entries from the place {@code startPath}
   * and {@code index} name (a node's path, and how many of its children's entries were sent: -1 for
   * none, nor its own), and the place to go on from; an empty path and -1 when done.
   */
  public SnapshotDiffReportListing listing(byte[] startPath, int index, int limit) {
    List<DiffReportListingEntry> m = new ArrayList<>();
    List<DiffReportListingEntry> c = new ArrayList<>();
    List<DiffReportListingEntry> d = new ArrayList<>();
    if (scope.empty()) {
      return new SnapshotDiffReportListing();
    }
    List<Changed> nodes = listingOrder();
    int first = 0;
    int skip = 0;
    if (startPath != null && (startPath.length > 0 || index >= 0)) {
      List<String> resume = components(startPath);
      while (first < nodes.size()
          && compareDepthFirst(nodes.get(first).node().laterPath(), resume) < 0) {
        first++;
      }
      skip = index < 0 ? 0 : index + 1;
    }
    int sent = 0;
    for (int i = first; i < nodes.size(); i++) {
      Changed ch = nodes.get(i);
      Node n = ch.node();
      List<DiffReportListingEntry> entries = new ArrayList<>();
      List<List<DiffReportListingEntry>> lists = new ArrayList<>();
      entries.add(new DiffReportListingEntry(n.id(), n.id(), bytes(n.path()), n.dir(), null));
      lists.add(m);
      for (Change x : ch.created()) {
        entries.add(
            new DiffReportListingEntry(
                x.dirId(), x.row().id(), x.path(), renamed.containsKey(x.row().id()), null));
        lists.add(c);
      }
      for (Change x : ch.deleted()) {
        Target t = renamed.get(x.row().id());

        entries.add(
            new DiffReportListingEntry(
                x.dirId(), x.row().id(), x.path(), t != null, t == null ? null : bytes(t.later())));
        lists.add(d);
      }
      for (int k = i == first ? skip : 0; k < entries.size(); k++) {
        if (sent == limit) {
          byte[] at = DFSUtilClient.byteArray2bytes(bytes(n.laterPath()));
          return new SnapshotDiffReportListing(at, m, c, d, k - 1, scope.fromEarlier());
        }
        lists.get(k).add(entries.get(k));
        sent++;
      }
    }
    return new SnapshotDiffReportListing(
        DFSUtilClient.EMPTY_BYTES, m, c, d, -1, scope.fromEarlier());
  }

  private static List<String> components(byte[] path) {
    List<String> out = new ArrayList<>();
    for (byte[] b : DFSUtilClient.bytes2byteArray(path)) {
      if (b != null && b.length > 0) {
        out.add(new String(b, StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /**
   * SnapshotDiffInfo.INODE_COMPARATOR over paths: the shallower first, then component by component
   * from the top, as signed bytes.
   */
  static int compareDepthFirst(List<String> a, List<String> b) {
    if (a.size() != b.size()) {
      return Integer.compare(a.size(), b.size());
    }
    for (int i = 0; i < a.size(); i++) {
      int c = SnapshotRoots.compareSigned(utf8(a.get(i)), utf8(b.get(i)));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static List<Change> sorted(List<Change> changes) {
    changes.sort((x, y) -> SnapshotRoots.compareSigned(utf8(x.name()), utf8(y.name())));
    return changes;
  }

  private static Map<String, InodeRow> byName(List<InodeRow> rows) {
    Map<String, InodeRow> out = new HashMap<>();
    for (InodeRow r : rows) {
      out.put(r.name(), r);
    }
    return out;
  }

  private static List<String> with(List<String> path, String name) {
    List<String> out = new ArrayList<>(path);
    out.add(name);
    return List.copyOf(out);
  }

  private static byte[][] bytes(List<String> path) {
    byte[][] out = new byte[path.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = utf8(path.get(i));
    }
    return out;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
