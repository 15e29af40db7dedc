package io.hops.namenode.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.ThreadConsole;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.cli.HopsMainAccess;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code hops fsck-namespace} run through the command line's entry point: a clean namespace passes
 * (exit 0); each corruption injected through the DAL is found (exit 1), and {@code --repair} fixes
 * the repairable ones (stale mark, orphan, quota usage) and leaves the others reported.
 */
class FsckNamespaceCommandTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static Storage storage;
  private static Path confDir;

  @BeforeAll
  static void start() throws Exception {
    String store = "mem:fsck-namespace-" + System.nanoTime();
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.METADATA_ENGINE, "embedded"); // so that the cluster keeps this store
    conf.set(HopsConfig.EMBEDDED_DIR, store);
    conf.setLong(HopsConfig.ELECTION_PERIOD_MS, 200);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(1);
    fs = cluster.client();
    storage = cluster.namenode().namesystem().storage();
    confDir = Files.createTempDirectory("fsck-namespace-conf");
    Files.writeString(
        confDir.resolve("hdfs-site.xml"),
        "<configuration>\n"
            + property(HopsConfig.EMBEDDED_DIR, store)
            + property(HopsConfig.ELECTION_PERIOD_MS, "200")
            + "</configuration>\n",
        StandardCharsets.UTF_8);
    fs.mkdirs(new org.apache.hadoop.fs.Path("/w/d"));
    fs.mkdirs(new org.apache.hadoop.fs.Path("/m/inner"));
    fs.mkdirs(new org.apache.hadoop.fs.Path("/q"));
    fs.setQuota(new org.apache.hadoop.fs.Path("/q"), 100, 1L << 30);
    for (String f : List.of("/w/f", "/w/d/g", "/q/h")) {
      try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(f), (short) 1)) {
        out.write(new byte[2000]);
      }
    }
  }

  private static String property(String name, String value) {
    return "<property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  private record Run(int exit, String out, String err) {}

  private static Run fsckNamespace(String... extra) throws Exception {
    String[] args = new String[2 + extra.length + 1];
    args[0] = "fsck-namespace";
    args[1] = "--conf";
    args[2] = confDir.toString();
    System.arraycopy(extra, 0, args, 3, extra.length);
    ThreadConsole.Captured c = ThreadConsole.capture(() -> HopsMainAccess.execute(args));
    return new Run(c.exit(), c.out(), c.err());
  }

  private static InodeRow inode(String path) throws IOException {
    try (Transaction tx = storage.begin()) {
      long parent = Inodes.ROOT_ID;
      InodeRow row = null;
      for (String name : path.substring(1).split("/")) {
        row = tx.find(InodeRow.TABLE, Inodes.key(parent, name), LockMode.READ_COMMITTED);
        parent = row.id();
      }
      return row;
    }
  }

  private interface Change {
    void apply(Transaction tx) throws IOException;
  }

  private static void inject(Change c) throws IOException {
    try (Transaction tx = storage.begin()) {
      c.apply(tx);
      tx.commit();
    }
  }

  @Test
  void findsEveryInjectedCorruptionAndRepairsTheSafeOnes() throws Exception {
    Run clean = fsckNamespace();
    assertThat(clean.exit()).as(clean.out()).isZero();
    assertThat(clean.out()).contains("checked").contains("HEALTHY");

    InodeRow w = inode("/w");
    InodeRow f = inode("/w/f");
    InodeRow m = inode("/m");
    InodeRow q = inode("/q");
    // An orphan: a directory whose parent does not exist, with a child of its own.
    MutableInode orphan = MutableInode.of(inode("/w/d"));
    orphan.parentId = 987_654;
    orphan.name = "lost-dir";
    orphan.id = 987_655;
    orphan.childrenCount = 0;
    inject(tx -> tx.insert(InodeRow.TABLE, orphan.toRow()));
    Run r = fsckNamespace();
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).contains("ORPHAN: directory lost-dir (987655)").contains("CORRUPT");

    // A row in the wrong partition.
    inject(
        tx -> {
          tx.delete(InodeRow.TABLE, f);
          InodeRow moved = MutableInode.of(f).toRow();
          tx.insert(InodeRow.TABLE, withPartition(moved, moved.partitionId() + 1));
        });
    // A block of a file that does not exist, and a replica of a block that does not.
    inject(
        tx ->
            tx.insert(
                BlockInfoRow.TABLE,
                new BlockInfoRow(555_555, 666_666, 0, 0, 10, 1001, BlockState.COMPLETE, 0, -1, 0)));
    inject(tx -> tx.insert(ReplicaRow.TABLE, new ReplicaRow(f.id(), 777_777, 1, 0)));
    // An offset row of a block that does not exist (block 666666 above has none).
    inject(
        tx -> tx.insert(BlockOffsetRow.TABLE, new BlockOffsetRow(f.id(), 1_000_000, 99, 888_888)));
    // A subtree mark and operation record of a namenode that is not alive.
    inject(
        tx -> {
          MutableInode marked = MutableInode.of(m);
          marked.subtreeLocked = true;
          marked.subtreeLockOwner = 4242;
          tx.update(InodeRow.TABLE, marked.toRow());
          tx.insert(
              OnGoingSubtreeOpRow.TABLE,
              new OnGoingSubtreeOpRow(0, m.id(), "/m", 4242, (byte) 1, 0, "x", null));
        });
    // A quota whose usage is off.
    QuotaRow right;
    try (Transaction tx = storage.begin()) {
      right = tx.find(QuotaRow.TABLE, QuotaRow.TABLE.key(q.id()), LockMode.READ_COMMITTED);
    }
    inject(
        tx ->
            tx.update(
                QuotaRow.TABLE,
                new QuotaRow(
                    q.id(),
                    right.nsQuota(),
                    right.dsQuota(),
                    right.nsCount() + 5,
                    right.dsCount() - 7)));

    r = fsckNamespace();
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out())
        .contains("ORPHAN:")
        .contains("WRONG_PARTITION: file f (" + f.id() + ")")
        .contains("BLOCK_OF_MISSING_FILE: block 666666 belongs to inode 555555")
        .contains("REPLICA_OF_MISSING_BLOCK: a replica on storage 1 of block 777777")
        .contains("BLOCK_OFFSET: block 666666 has no offset row (at 0, index 0 of inode 555555)")
        .contains(
            "BLOCK_OFFSET: an offset row places block 888888 at 1000000 (index 99) of inode "
                + f.id()
                + ", a block that does not exist")
        .contains("STALE_SUBTREE_MARK: directory m (" + m.id() + ") is marked by namenode 4242")
        .contains("STALE_SUBTREE_OPERATION: the subtree operation on /m of namenode 4242")
        .contains("QUOTA_USAGE: directory q (" + q.id() + ") records a usage of");

    // A repair while a namenode is live and writes could be lost is refused, and repairs nothing.
    Run refused = fsckNamespace("--repair");
    assertThat(refused.exit()).isEqualTo(2);
    assertThat(refused.err())
        .contains("--repair refused: namenode(s) [")
        .contains("are live and the cluster is not in safe mode");
    assertThat(fsckNamespace().out()).contains("ORPHAN").contains("QUOTA_USAGE");

    // In safe mode, which every namenode honours, it runs.
    fs.setSafeMode(org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction.SAFEMODE_ENTER);
    Run repaired = fsckNamespace("--repair");
    fs.setSafeMode(org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction.SAFEMODE_LEAVE);
    assertThat(repaired.exit()).as("unrepairable problems remain").isEqualTo(1);
    assertThat(repaired.out())
        .contains("repaired ORPHAN")
        .contains("repaired STALE_SUBTREE_MARK")
        .contains("repaired QUOTA_USAGE")
        .contains("remains WRONG_PARTITION")
        .contains("remains BLOCK_OF_MISSING_FILE")
        .contains("remains REPLICA_OF_MISSING_BLOCK")
        .contains("remains BLOCK_OFFSET")
        .doesNotContain("remains ORPHAN")
        .doesNotContain("remains STALE")
        .doesNotContain("remains QUOTA");
    // Through the stock client: the orphan is in /lost+found, the mark is gone, the quota is right.
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/lost+found/lost-dir#987655"))).isTrue();
    assertThat(fs.delete(new org.apache.hadoop.fs.Path("/m/inner"), true)).isTrue();
    assertThat(fs.getQuotaUsage(new org.apache.hadoop.fs.Path("/q")).getFileAndDirectoryCount())
        .isEqualTo(right.nsCount());
    assertThat(fs.getQuotaUsage(new org.apache.hadoop.fs.Path("/q")).getSpaceConsumed())
        .isEqualTo(right.dsCount());

    // The operator removes the rest by hand; then the namespace is clean again.
    inject(
        tx -> {
          InodeRow wrong = withPartition(MutableInode.of(f).toRow(), f.partitionId() + 1);
          tx.delete(InodeRow.TABLE, wrong);
          tx.insert(InodeRow.TABLE, f);
          tx.delete(BlockInfoRow.TABLE, BlockInfoRow.TABLE.key(555_555L, 666_666L));
          tx.delete(ReplicaRow.TABLE, ReplicaRow.TABLE.key(f.id(), 777_777L, 1));
          tx.delete(BlockOffsetRow.TABLE, BlockOffsetRow.TABLE.key(f.id(), 1_000_000L, 99));
        });
    Run again = fsckNamespace();
    assertThat(again.exit()).as(again.out()).isZero();
    assertThat(w.childrenCount()).isEqualTo(2);

    // Slow rounds raised the election period to 3 s: the namenode beats every 3 s, not every
    // 200 ms as configured, and is still seen live, so a repair is still refused.
    inject(
        tx -> {
          var period = io.hops.dal.rows.VariableRow.TABLE;
          var raised = new io.hops.dal.rows.VariableRow("le_period_ms", 3_000L, null);
          if (tx.find(period, period.key("le_period_ms"), LockMode.EXCLUSIVE) == null) {
            tx.insert(period, raised);
          } else {
            tx.update(period, raised);
          }
        });
    Thread.sleep(3_500); // the namenode's round now waits the raised period
    Run slow = fsckNamespace("--repair");
    assertThat(slow.exit()).as(slow.out()).isEqualTo(2);
    assertThat(slow.err()).contains("are live and the cluster is not in safe mode");
  }

  /** {@code r} as a row of {@code partition}: a row in the wrong partition. */
  static InodeRow withPartition(InodeRow r, long partition) {
    return new InodeRow(
        partition,
        r.parentId(),
        r.name(),
        r.id(),
        r.isDir(),
        r.permission(),
        r.userId(),
        r.groupId(),
        r.modificationTime(),
        r.accessTime(),
        r.size(),
        r.replication(),
        r.preferredBlockSize(),
        r.underConstruction(),
        r.clientName(),
        r.clientMachine(),
        r.subtreeLocked(),
        r.subtreeLockOwner(),
        r.fileStoredInDb(),
        r.storagePolicy(),
        r.childrenCount(),
        r.hasQuota(),
        r.symlink(),
        r.snapshottable(),
        r.snapshotId());
  }
}
