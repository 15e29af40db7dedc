package io.hops.bench.namespace;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnDiskLargeFileDataRow;
import io.hops.dal.rows.OnDiskMediumFileDataRow;
import io.hops.dal.rows.OnDiskSmallFileDataRow;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.Table;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A namespace the loader writes through the embedded engine's bulk load is the one it writes in
 * transactions: walked from its top through the DAL (each directory's partition, each inode found
 * again through the id index, each file's data rows), the two give the same rows but for ids and
 * times; the bulk-loaded one is HEALTHY to {@code fsck-namespace} and its sample reads back through
 * the stock client. ({@code NamespaceLoaderTest}, on the bulk path too, has a namenode create and
 * delete over it.)
 */
class NamespaceBulkLoadTest {
  private static final int FILES = 30_000;
  private static final List<Table<? extends Record>> DATA =
      List.of(
          InMemoryFileDataRow.TABLE,
          OnDiskSmallFileDataRow.TABLE,
          OnDiskMediumFileDataRow.TABLE,
          OnDiskLargeFileDataRow.TABLE);

  @Test
  void theBulkPathWritesTheRowsTheTransactionalPathWrites() throws Exception {
    Map<String, String> bulk;
    Map<String, String> transactional;
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client()) {
      Storage storage = cluster.namenode().namesystem().storage();
      assertThat(storage.bulkLoad()).isPresent();
      List<Path> sample = load(fs, storage, false);
      bulk = walk(storage);
      assertThat(NamespaceLoaderTest.fsck(storage)).contains("HEALTHY");
      for (Path p : sample) {
        try (FSDataInputStream in = fs.open(p)) {
          assertThat(in.readAllBytes())
              .isEqualTo(
                  NamespaceLoader.contentOf(p, p.toString().contains("/big/") ? 20_000 : 100));
        }
      }
    }
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client()) {
      Storage storage = cluster.namenode().namesystem().storage();
      load(fs, storage, true);
      transactional = walk(storage);
    }
    assertThat(bulk.values().stream().filter(r -> r.contains("isDir=false")).count())
        .isEqualTo(FILES + 600);
    assertThat(bulk.keySet()).isEqualTo(transactional.keySet());
    assertThat(bulk).isEqualTo(transactional);
  }

  /** The same two namespaces as {@code NamespaceLoaderTest}'s, by one path or the other. */
  private static List<Path> load(DistributedFileSystem fs, Storage storage, boolean inTransactions)
      throws Exception {
    fs.mkdirs(new Path("/bench"));
    List<Path> sample = new ArrayList<>();
    NamespaceLoader small =
        new NamespaceLoader(
            storage, NamespaceSpec.SPOTIFY.withFileSize(100), new Configuration(false));
    NamespaceLoader large =
        new NamespaceLoader(
            storage, NamespaceSpec.SPOTIFY.withFileSize(20_000), new Configuration(false));
    if (inTransactions) {
      small.transactional();
      large.transactional();
    }
    sample.addAll(small.load(new Path("/bench/ns"), FILES, 7, 100).sample());
    sample.addAll(large.load(new Path("/big"), 600, 8, 20).sample());
    return sample;
  }

  /**
   * Every inode below the root's children {@code bench} and {@code big}, by path: its row without
   * ids and times, and its data rows without the inode id; each found again by its id.
   */
  private static Map<String, String> walk(Storage storage) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Transaction tx = storage.begin()) {
      for (String top : List.of("bench", "big")) {
        InodeRow root = tx.find(InodeRow.TABLE, Inodes.rootKey(), LockMode.READ_COMMITTED);
        InodeRow t = tx.find(InodeRow.TABLE, Inodes.key(root.id(), top), LockMode.READ_COMMITTED);
        walk(tx, t, "/" + top, out);
      }
    }
    return out;
  }

  private static void walk(Transaction tx, InodeRow inode, String path, Map<String, String> out)
      throws Exception {
    assertThat(tx.findByIndex(InodeRow.TABLE, "id", inode.id(), LockMode.READ_COMMITTED))
        .as(path)
        .containsExactly(inode);
    MutableInode m = MutableInode.of(inode);
    m.id = 0;
    m.parentId = 0;
    m.modificationTime = 0;
    m.accessTime = 0;
    StringBuilder s = new StringBuilder(m.toRow().toString().replaceAll("partitionId=-?\\d+", ""));
    for (Table<? extends Record> t : DATA) {
      for (Record r : tx.findByPartition(t, inode.id(), LockMode.READ_COMMITTED)) {
        s.append(' ').append(dataRow(t, r));
      }
    }
    out.put(path, s.toString());
    if (inode.isDir()) {
      for (InodeRow child :
          tx.findByPartition(InodeRow.TABLE, inode.id(), LockMode.READ_COMMITTED)) {
        walk(tx, child, path + "/" + child.name(), out);
      }
    }
  }

  /** A data row's table and columns but its inode id, bytes in base 64. */
  @SuppressWarnings("unchecked")
  private static <R extends Record> String dataRow(Table<R> table, Record row) {
    StringBuilder s = new StringBuilder(table.name());
    for (Column c : table.columns().subList(1, table.columns().size())) {
      Object v = table.get((R) row, c.position());
      s.append(':').append(v instanceof byte[] b ? Base64.getEncoder().encodeToString(b) : v);
    }
    return s.toString();
  }
}
