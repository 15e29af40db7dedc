package io.hops.namenode.blocks;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnDiskLargeFileDataRow;
import io.hops.dal.rows.OnDiskMediumFileDataRow;
import io.hops.dal.rows.OnDiskSmallFileDataRow;
import io.hops.dal.schema.Table;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * Where the bytes of a file stored in the database live (docs/architecture.md, "Small files in the
 * database"): up to 1 KB in the in-memory table, up to 2 KB and 4 KB in the on-disk small and
 * medium tables, larger up to the maximum in 8 KB pieces of the on-disk large table. A file's tier
 * follows from its length alone, so reading or deleting it needs no other row. Thresholds come from
 * {@link HopsConfig} and are checked at start against the schema's column widths.
 */
public final class SmallFileStore {
  /** The four tables, smallest first. */
  public enum Tier {
    IN_MEMORY,
    ON_DISK_SMALL,
    ON_DISK_MEDIUM,
    ON_DISK_LARGE
  }

  private final int inMemoryMax;
  private final int smallMax;
  private final int mediumMax;
  private final int rowSize;
  private final int max;
  private final boolean dbByDefault;
  private volatile org.apache.hadoop.hdfs.protocol.DatanodeInfo endpoint;

  public SmallFileStore(Configuration conf) {
    inMemoryMax =
        conf.getInt(
            HopsConfig.SMALL_FILE_INMEMORY_MAX_SIZE,
            HopsConfig.SMALL_FILE_INMEMORY_MAX_SIZE_DEFAULT);
    smallMax =
        conf.getInt(
            HopsConfig.SMALL_FILE_ONDISK_SMALL_MAX_SIZE,
            HopsConfig.SMALL_FILE_ONDISK_SMALL_MAX_SIZE_DEFAULT);
    mediumMax =
        conf.getInt(
            HopsConfig.SMALL_FILE_ONDISK_MEDIUM_MAX_SIZE,
            HopsConfig.SMALL_FILE_ONDISK_MEDIUM_MAX_SIZE_DEFAULT);
    rowSize =
        conf.getInt(
            HopsConfig.SMALL_FILE_ONDISK_LARGE_ROW_SIZE,
            HopsConfig.SMALL_FILE_ONDISK_LARGE_ROW_SIZE_DEFAULT);
    max = conf.getInt(HopsConfig.SMALL_FILE_MAX_SIZE, HopsConfig.SMALL_FILE_MAX_SIZE_DEFAULT);
    dbByDefault =
        conf.getBoolean(
            HopsConfig.SMALL_FILE_DB_BY_DEFAULT, HopsConfig.SMALL_FILE_DB_BY_DEFAULT_DEFAULT);
    checkWidth(HopsConfig.SMALL_FILE_INMEMORY_MAX_SIZE, inMemoryMax, InMemoryFileDataRow.TABLE);
    checkWidth(HopsConfig.SMALL_FILE_ONDISK_SMALL_MAX_SIZE, smallMax, OnDiskSmallFileDataRow.TABLE);
    checkWidth(
        HopsConfig.SMALL_FILE_ONDISK_MEDIUM_MAX_SIZE, mediumMax, OnDiskMediumFileDataRow.TABLE);
    checkWidth(HopsConfig.SMALL_FILE_ONDISK_LARGE_ROW_SIZE, rowSize, OnDiskLargeFileDataRow.TABLE);
    if (!(inMemoryMax <= smallMax && smallMax <= mediumMax && rowSize > 0 && max >= 0)) {
      throw new IllegalArgumentException(
          "small-file tiers must grow: "
              + HopsConfig.SMALL_FILE_INMEMORY_MAX_SIZE
              + " <= "
              + HopsConfig.SMALL_FILE_ONDISK_SMALL_MAX_SIZE
              + " <= "
              + HopsConfig.SMALL_FILE_ONDISK_MEDIUM_MAX_SIZE
              + ", got "
              + inMemoryMax
              + ", "
              + smallMax
              + ", "
              + mediumMax);
    }
  }

  private static void checkWidth(String key, int value, Table<?> table) {
    int width = table.column("data").maxBytes();
    if (value > width || value < 0) {
      throw new IllegalArgumentException(
          key
              + "="
              + value
              + " does not fit the schema: "
              + table.name()
              + ".data holds at most "
              + width
              + " bytes");
    }
  }

  /**
   * Where stock clients read database files ({@code smallfiles/DatabaseBlockServer}); null:
   * nowhere.
   */
  public void setEndpoint(org.apache.hadoop.hdfs.protocol.DatanodeInfo node) {
    this.endpoint = node;
  }

  /**
   * What {@code getBlockLocations} answers for a database file: one complete block, whose id is the
   * inode id, on this namenode's data-transfer endpoint; none for an empty file.
   */
  public org.apache.hadoop.hdfs.protocol.LocatedBlocks locatedBlocks(
      InodeRow file, String blockPoolId, String path) throws java.io.IOException {
    org.apache.hadoop.hdfs.protocol.DatanodeInfo node = endpoint;
    if (node == null && file.size() > 0) {
      throw new java.io.IOException(
          path
              + " is stored in the database and this namenode serves no stock client reads of it"
              + " ("
              + HopsConfig.SMALL_FILE_XFER_PORT
              + " is -1): read it with hops-client");
    }
    return located(file.id(), file.size(), blockPoolId, node);
  }

  /**
   * As {@link #locatedBlocks}, for the bytes a snapshot reads: {@code length} bytes kept under
   * {@code dataId} (the file's inode id, or a tail's: docs/architecture.md, "Snapshots"), which the
   * endpoint reads as it reads a live file's.
   */
  public org.apache.hadoop.hdfs.protocol.LocatedBlocks locatedBlocksAt(
      long dataId, long length, String blockPoolId, String path) throws java.io.IOException {
    org.apache.hadoop.hdfs.protocol.DatanodeInfo node = endpoint;
    if (node == null && length > 0) {
      throw new java.io.IOException(
          path
              + " is stored in the database and this namenode serves no stock client reads of it"
              + " ("
              + HopsConfig.SMALL_FILE_XFER_PORT
              + " is -1): read it with hops-client");
    }
    return located(dataId, length, blockPoolId, node);
  }

  /**
   * The locations a listing with locations ({@code listLocatedStatus}: Spark's and MapReduce's
   * input listing) shows for a database file: as {@link #locatedBlocks}, but without an endpoint
   * the block is listed with no locations, as HDFS lists a block whose replicas are all gone,
   * instead of failing the listing of the whole directory (hops-client reads the file anyway).
   */
  public org.apache.hadoop.hdfs.protocol.LocatedBlocks listedBlocks(
      InodeRow file, String blockPoolId) {
    return located(file.id(), file.size(), blockPoolId, endpoint);
  }

  private static org.apache.hadoop.hdfs.protocol.LocatedBlocks located(
      long dataId,
      long length,
      String blockPoolId,
      org.apache.hadoop.hdfs.protocol.DatanodeInfo node) {
    if (length == 0) {
      return new org.apache.hadoop.hdfs.protocol.LocatedBlocks(
          0, false, List.of(), null, true, null, null);
    }
    var block =
        new org.apache.hadoop.hdfs.protocol.LocatedBlock(
            new org.apache.hadoop.hdfs.protocol.ExtendedBlock(blockPoolId, dataId, length, 1),
            node == null
                ? new org.apache.hadoop.hdfs.protocol.DatanodeInfo[0]
                : new org.apache.hadoop.hdfs.protocol.DatanodeInfo[] {node},
            null,
            null,
            0,
            false,
            new org.apache.hadoop.hdfs.protocol.DatanodeInfo[0]);
    return new org.apache.hadoop.hdfs.protocol.LocatedBlocks(
        length, false, List.of(block), block, true, null, null);
  }

  /** Whether {@code blocks} is what {@link #locatedBlocks} answers for a database file. */
  public boolean isDatabaseFile(org.apache.hadoop.hdfs.protocol.LocatedBlocks blocks) {
    org.apache.hadoop.hdfs.protocol.DatanodeInfo node = endpoint;
    return node != null
        && blocks.locatedBlockCount() == 1
        && blocks.get(0).getLocations().length == 1
        && node.getDatanodeUuid().equals(blocks.get(0).getLocations()[0].getDatanodeUuid());
  }

  /** The largest file kept in the database. */
  public int maxSize() {
    return max;
  }

  /** Whether a new file under {@code ancestors} (root first) goes to the database. */
  public boolean appliesUnder(List<InodeRow> ancestors) {
    byte policy = StoragePolicies.effective(ancestors);
    return policy == StoragePolicies.DB_POLICY_ID
        || (dbByDefault && policy == HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED);
  }

  /** The table a file of {@code length} bytes lives in. */
  public Tier tierOf(long length) {
    if (length <= inMemoryMax) {
      return Tier.IN_MEMORY;
    } else if (length <= smallMax) {
      return Tier.ON_DISK_SMALL;
    } else if (length <= mediumMax) {
      return Tier.ON_DISK_MEDIUM;
    }
    return Tier.ON_DISK_LARGE;
  }

  private int pieces(long length) {
    return (int) ((length + rowSize - 1) / rowSize);
  }

  /** Where {@link #write(Inserts, long, byte[])} puts rows: a transaction's or a phase's insert. */
  public interface Inserts {
    <R extends Record> void insert(Table<R> table, R row) throws StorageException;
  }

  /** Buffers the rows of a new file's bytes. */
  public void write(ExecutePhase tx, long inodeId, byte[] data) throws StorageException {
    write(tx::insert, inodeId, data);
  }

  /**
   * The rows of a new file's bytes, into {@code tx}: also a plain {@link io.hops.dal.Transaction},
   * for the bulk loader of hammer-bench, which writes exactly the rows a create would.
   */
  public void write(Inserts tx, long inodeId, byte[] data) throws StorageException {
    switch (tierOf(data.length)) {
      case IN_MEMORY ->
          tx.insert(InMemoryFileDataRow.TABLE, new InMemoryFileDataRow(inodeId, data));
      case ON_DISK_SMALL ->
          tx.insert(OnDiskSmallFileDataRow.TABLE, new OnDiskSmallFileDataRow(inodeId, data));
      case ON_DISK_MEDIUM ->
          tx.insert(OnDiskMediumFileDataRow.TABLE, new OnDiskMediumFileDataRow(inodeId, data));
      case ON_DISK_LARGE -> {
        for (int i = 0; i < pieces(data.length); i++) {
          byte[] piece =
              Arrays.copyOfRange(data, i * rowSize, Math.min(data.length, (i + 1) * rowSize));
          tx.insert(OnDiskLargeFileDataRow.TABLE, new OnDiskLargeFileDataRow(inodeId, i, piece));
        }
      }
    }
  }

  /** Buffers the delete of a file's rows (by key: the length says which). */
  public void delete(ExecutePhase tx, long inodeId, long length) throws StorageException {
    switch (tierOf(length)) {
      case IN_MEMORY ->
          tx.delete(InMemoryFileDataRow.TABLE, InMemoryFileDataRow.TABLE.key(inodeId));
      case ON_DISK_SMALL ->
          tx.delete(OnDiskSmallFileDataRow.TABLE, OnDiskSmallFileDataRow.TABLE.key(inodeId));
      case ON_DISK_MEDIUM ->
          tx.delete(OnDiskMediumFileDataRow.TABLE, OnDiskMediumFileDataRow.TABLE.key(inodeId));
      case ON_DISK_LARGE -> {
        for (int i = 0; i < pieces(length); i++) {
          tx.delete(OnDiskLargeFileDataRow.TABLE, OnDiskLargeFileDataRow.TABLE.key(inodeId, i));
        }
      }
    }
  }

  /**
   * The bytes of a file stored in the database, read committed (the file's inode lock protects
   * them): one primary-key read, or one pruned scan for the large tier. Null when a row is missing
   * or the bytes do not add up to {@code length}: the file is corrupt.
   */
  public byte[] read(LockPhase tx, long inodeId, long length) throws StorageException {
    byte[] data =
        switch (tierOf(length)) {
          case IN_MEMORY -> {
            InMemoryFileDataRow r =
                tx.find(
                    InMemoryFileDataRow.TABLE,
                    InMemoryFileDataRow.TABLE.key(inodeId),
                    LockMode.READ_COMMITTED);
            yield r == null ? null : r.data();
          }
          case ON_DISK_SMALL -> {
            OnDiskSmallFileDataRow r =
                tx.find(
                    OnDiskSmallFileDataRow.TABLE,
                    OnDiskSmallFileDataRow.TABLE.key(inodeId),
                    LockMode.READ_COMMITTED);
            yield r == null ? null : r.data();
          }
          case ON_DISK_MEDIUM -> {
            OnDiskMediumFileDataRow r =
                tx.find(
                    OnDiskMediumFileDataRow.TABLE,
                    OnDiskMediumFileDataRow.TABLE.key(inodeId),
                    LockMode.READ_COMMITTED);
            yield r == null ? null : r.data();
          }
          case ON_DISK_LARGE ->
              joined(
                  tx.findByPartition(
                      OnDiskLargeFileDataRow.TABLE, inodeId, LockMode.READ_COMMITTED),
                  length);
        };
    if (data == null || data.length != length) {
      return null;
    }
    return data;
  }

  private static byte[] joined(List<OnDiskLargeFileDataRow> pieces, long length) {
    byte[] out = new byte[(int) length];
    int at = 0;
    for (int i = 0; i < pieces.size(); i++) {
      OnDiskLargeFileDataRow p = pieces.get(i);
      if (p.pieceIndex() != i || at + p.data().length > length) {
        return null;
      }
      System.arraycopy(p.data(), 0, out, at, p.data().length);
      at += p.data().length;
    }
    return at == length ? out : null;
  }
}
