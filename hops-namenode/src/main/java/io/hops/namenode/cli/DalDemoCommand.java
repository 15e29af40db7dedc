package io.hops.namenode.cli;

import io.hops.dal.AccessCounts;
import io.hops.dal.DalConfig;
import io.hops.dal.IdRange;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Tables;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/**
 * The DAL at work on the configured store: one transaction per access kind, each printed with its
 * result and its cost in the vocabulary of docs/architecture.md, "Database cost per operation".
 * Leaves the store as it found it.
 */
@Command(
    name = "dal-demo",
    description =
        "Write a directory with three files to the metadata store, read them back by primary key,"
            + " by a batched read and by a partition-pruned scan, print each transaction's"
            + " database accesses, then delete them.")
final class DalDemoCommand implements Callable<Integer> {
  /** A counter of its own, removed at the end, so the demo leaves no trace. */
  private static final String COUNTER = "dal-demo";

  private static final List<String> FILES = List.of("a.txt", "b.txt", "c.txt");

  @Spec private picocli.CommandLine.Model.CommandSpec spec;
  @Mixin private ConfOption conf;
  private PrintWriter out;

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    DalConfig config = conf.load();
    out.println("dal-demo on the " + config.engine() + " store " + MetadataConf.location(config));
    out.flush();
    try (Storage storage = Storages.open(config)) {
      if (storage.schema().existingTables().size() < Tables.ALL.size()) {
        throw new StorageException("the schema is incomplete: run 'hops format' first");
      }
      out.printf("  %-34s %-18s %s%n", "transaction", "cost", "result");
      AccessCounts before = storage.accessCounts();
      IdRange ids = storage.allocateIds(COUNTER, 2 + FILES.size());
      show(
          "allocate ids",
          storage.accessCounts().minus(before),
          ids.first() + ".." + (ids.end() - 1) + " from counter '" + COUNTER + "'");
      // Negative ids, which no real inode has: the demo cannot touch a real namespace.
      long parent = -ids.first();
      InodeRow dir = inode(parent, "dal-demo", parent - 1, true);
      List<InodeRow> files = new ArrayList<>();
      for (int i = 0; i < FILES.size(); i++) {
        files.add(inode(dir.id(), FILES.get(i), dir.id() - 1 - i, false));
      }
      try {
        demo(storage, dir, files);
      } finally {
        try (Transaction tx = storage.begin()) {
          for (InodeRow f : files) {
            tx.delete(InodeRow.TABLE, f);
          }
          tx.delete(InodeRow.TABLE, dir);
          tx.delete(VariableRow.TABLE, VariableRow.TABLE.key(COUNTER));
          tx.commit();
          show("delete them and the counter", tx.accessCounts(), "4 inodes, 1 counter");
        }
      }
      out.println("all accesses of this run: " + storage.accessCounts());
      out.flush();
      return 0;
    }
  }

  private void demo(Storage storage, InodeRow dir, List<InodeRow> files) throws StorageException {
    try (Transaction tx = storage.begin(dir.partitionId())) {
      tx.insert(InodeRow.TABLE, dir);
      for (InodeRow f : files) {
        tx.insert(InodeRow.TABLE, f);
      }
      tx.commit();
      show(
          "insert a directory and its files",
          tx.accessCounts(),
          describe(dir) + ", " + names(files));
    }
    try (Transaction tx = storage.begin(dir.partitionId())) {
      InodeRow found = tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(dir), LockMode.SHARED);
      tx.commit();
      show("read the directory by primary key", tx.accessCounts(), describe(found));
    }
    try (Transaction tx = storage.begin(dir.id())) {
      List<Key> keys = files.stream().map(InodeRow.TABLE::keyOf).toList();
      List<InodeRow> found = tx.findBatch(InodeRow.TABLE, keys, LockMode.READ_COMMITTED);
      tx.commit();
      show("read the files in one batch", tx.accessCounts(), names(found));
    }
    try (Transaction tx = storage.begin(dir.id())) {
      List<InodeRow> found = tx.findByPartition(InodeRow.TABLE, dir.id(), LockMode.READ_COMMITTED);
      tx.commit();
      show("list the directory", tx.accessCounts(), names(found));
    }
  }

  private void show(String what, AccessCounts cost, String result) {
    out.printf("  %-34s %-18s %s%n", what, cost, result);
  }

  private static String describe(InodeRow r) {
    return r == null ? "(not found)" : r.name() + (r.isDir() ? "/" : "") + " #" + r.id();
  }

  private static String names(List<InodeRow> rows) {
    return rows.stream().map(DalDemoCommand::describe).collect(Collectors.joining(", "));
  }

  /**
   * A directory or file under {@code parentId}, partitioned by its parent (docs/architecture.md,
   * "Metadata schema").
   */
  private static InodeRow inode(long parentId, String name, long id, boolean isDir) {
    long now = System.currentTimeMillis();
    return new InodeRow(
        parentId,
        parentId,
        name,
        id,
        isDir,
        (short) (isDir ? 0755 : 0644),
        1,
        1,
        now,
        now,
        0,
        (short) (isDir ? 0 : 3),
        isDir ? 0 : 128L << 20,
        false,
        null,
        null,
        false,
        0,
        false,
        (byte) 0,
        0,
        false,
        null,
        false,
        0);
  }
}
