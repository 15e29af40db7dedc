package io.hops.dal.dump;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeDescriptorRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * The whole metadata of a cluster written to a directory and read back into another store, of any
 * engine: the path from the embedded store to a newer format of it, or to MariaDB or NDB. The
 * format is the DAL's, not an engine's: a {@code manifest.properties} (format version, and each
 * table's columns by name and type and its row count) and one deflated file of rows per table, each
 * value in its column's type. Reading maps columns by name, so a dump of an older schema loads into
 * a newer one: a column the dump lacks takes its default (null, 0, false), and a column the store
 * lacks refuses the load, since its values would be lost.
 *
 * <p>What a running namenode keeps for itself is left out: the election's descriptors (the
 * namenodes of the exporting cluster) and the retry cache. Everything else is written: inodes,
 * blocks, replicas, leases, xattrs and ACLs, quotas, small files' data, users and groups, datanodes
 * and storages (replicas name them), and the variables (id counters, the namespace's ids).
 */
public final class NamespaceDump {
  /** The format written; a reader takes this version and every older one. */
  public static final int FORMAT_VERSION = 1;

  public static final String MANIFEST = "manifest.properties";

  /** Not written: state of the exporting cluster's running namenodes. */
  static final Set<Table<?>> LEFT_OUT = Set.of(LeDescriptorRow.TABLE, RetryCacheRow.TABLE);

  private static final int PAGE = 10_000;
  private static final int BATCH = 1_000;

  private NamespaceDump() {}

  /** Rows written or read, per table, in the order of {@link Tables#ALL}. */
  public record Counts(Map<String, Long> rows) {
    public long total() {
      return rows.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /**
   * Writes every table of {@code from} but {@link #LEFT_OUT} to {@code dir}, which must be empty or
   * absent, a page at a time. Run it on a store nobody writes (namenodes stopped or in safe mode):
   * the pages are no snapshot.
   */
  public static Counts export(Storage from, Path dir, Consumer<String> progress)
      throws IOException {
    Files.createDirectories(dir);
    try (var entries = Files.list(dir)) {
      if (entries.findAny().isPresent()) {
        throw new IOException(dir + " is not empty");
      }
    }
    Properties manifest = new Properties();
    manifest.setProperty("format", "hops-namespace-dump");
    manifest.setProperty("version", Integer.toString(FORMAT_VERSION));
    Map<String, Long> counts = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (Table<?> table : Tables.ALL) {
      if (LEFT_OUT.contains(table)) {
        continue;
      }
      long rows = exportTable(from, table, dir.resolve(table.name() + ".rows"));
      names.add(table.name());
      counts.put(table.name(), rows);
      manifest.setProperty("table." + table.name() + ".columns", columnsOf(table));
      manifest.setProperty("table." + table.name() + ".rows", Long.toString(rows));
      progress.accept(table.name() + ": " + rows + " rows");
    }
    manifest.setProperty("tables", String.join(",", names));
    try (Writer w = Files.newBufferedWriter(dir.resolve(MANIFEST), StandardCharsets.UTF_8)) {
      manifest.store(w, "hops metadata dump");
    }
    return new Counts(counts);
  }

  /**
   * Loads the dump in {@code dir} into {@code into}, whose tables must be empty (a formatted
   * store), in transactions of {@value #BATCH} rows.
   */
  public static Counts importInto(Storage into, Path dir, Consumer<String> progress)
      throws IOException {
    Properties manifest = new Properties();
    try (Reader r = Files.newBufferedReader(dir.resolve(MANIFEST), StandardCharsets.UTF_8)) {
      manifest.load(r);
    }
    if (!"hops-namespace-dump".equals(manifest.getProperty("format"))) {
      throw new IOException(dir + " holds no hops metadata dump");
    }
    int version = Integer.parseInt(manifest.getProperty("version", "0"));
    if (version < 1 || version > FORMAT_VERSION) {
      throw new IOException(
          "dump format version "
              + version
              + " is newer than this release reads ("
              + FORMAT_VERSION
              + ")");
    }
    if (into.schema().hasData()) {
      throw new IOException("the target metadata store holds data: format it empty first");
    }
    Map<String, Long> counts = new LinkedHashMap<>();
    for (String name : manifest.getProperty("tables", "").split(",")) {
      if (name.isEmpty()) {
        continue;
      }
      Table<?> table;
      try {
        table = Tables.byName(name);
      } catch (IllegalArgumentException e) {
        throw new IOException("table " + name + " is in the dump but not in this schema");
      }
      String[] columns = manifest.getProperty("table." + name + ".columns").split(",");
      long expected = Long.parseLong(manifest.getProperty("table." + name + ".rows"));
      long rows = importTable(into, table, columns, dir.resolve(name + ".rows"));
      if (rows != expected) {
        throw new IOException(name + ": " + rows + " rows read, the manifest says " + expected);
      }
      counts.put(name, rows);
      progress.accept(name + ": " + rows + " rows");
    }
    return new Counts(counts);
  }

  private static String columnsOf(Table<?> table) {
    List<String> out = new ArrayList<>();
    for (Column c : table.columns()) {
      out.add(c.name() + ":" + c.type() + (written(c) ? ":null" : ""));
    }
    return String.join(",", out);
  }

  private static <R extends Record> long exportTable(Storage from, Table<R> table, Path file)
      throws IOException {
    long rows = 0;
    try (DataOutputStream out = open(file)) {
      Key after = null;
      while (true) {
        List<R> page;
        try (Transaction tx = from.begin()) {
          page = tx.scanFrom(table, null, after, PAGE, LockMode.READ_COMMITTED);
          tx.commit();
        }
        for (R row : page) {
          out.writeBoolean(true);
          for (Column c : table.columns()) {
            write(out, c, table.get(row, c.position()));
          }
        }
        rows += page.size();
        if (page.size() < PAGE) {
          break;
        }
        after = table.keyOf(page.get(page.size() - 1));
      }
      out.writeBoolean(false);
    }
    return rows;
  }

  private static <R extends Record> long importTable(
      Storage into, Table<R> table, String[] dumped, Path file) throws IOException {
    // Where each dumped column goes in this release's row, its type, and whether a value may be
    // missing (a flag before each value).
    int[] position = new int[dumped.length];
    ColumnType[] type = new ColumnType[dumped.length];
    boolean[] flagged = new boolean[dumped.length];
    for (int i = 0; i < dumped.length; i++) {
      String[] nameAndType = dumped[i].split(":");
      Column c;
      try {
        c = table.column(nameAndType[0]);
      } catch (IllegalArgumentException e) {
        throw new IOException(
            table.name() + "." + nameAndType[0] + " is in the dump but not in this schema");
      }
      type[i] = ColumnType.valueOf(nameAndType[1]);
      flagged[i] = nameAndType.length > 2;
      if (type[i] != c.type()) {
        throw new IOException(
            table.name()
                + "."
                + c.name()
                + " is "
                + type[i]
                + " in the dump, "
                + c.type()
                + " here");
      }
      position[i] = c.position();
    }
    long rows = 0;
    List<R> batch = new ArrayList<>(BATCH);
    Object[] defaults = defaults(table);
    try (DataInputStream in =
        new DataInputStream(
            new BufferedInputStream(
                new InflaterInputStream(Files.newInputStream(file)), 1 << 16))) {
      while (in.readBoolean()) {
        Object[] values = defaults.clone();
        for (int i = 0; i < dumped.length; i++) {
          values[position[i]] = read(in, type[i], flagged[i]);
        }
        batch.add(table.newRow(values));
        if (batch.size() == BATCH) {
          insert(into, table, batch);
          rows += batch.size();
          batch.clear();
        }
      }
    } catch (EOFException e) {
      throw new IOException(file + " ends before its last row", e);
    }
    insert(into, table, batch);
    return rows + batch.size();
  }

  /** A row of this schema's defaults: zero for a primitive column, null for the others. */
  private static Object[] defaults(Table<?> table) {
    Object[] values = new Object[table.columns().size()];
    var components = table.rowType().getRecordComponents();
    for (Column c : table.columns()) {
      if (components[c.position()].getType().isPrimitive()) {
        values[c.position()] =
            switch (c.type()) {
              case BIGINT -> 0L;
              case INT -> 0;
              case SMALLINT -> (short) 0;
              case TINYINT -> (byte) 0;
              case BOOLEAN -> false;
              case STRING, BYTES -> null;
            };
      }
    }
    return values;
  }

  private static <R extends Record> void insert(Storage into, Table<R> table, List<R> rows)
      throws StorageException {
    if (rows.isEmpty()) {
      return;
    }
    try (Transaction tx = into.begin()) {
      for (R row : rows) {
        tx.insert(table, row);
      }
      tx.commit();
    }
  }

  private static DataOutputStream open(Path file) throws IOException {
    OutputStream raw = Files.newOutputStream(file);
    return new DataOutputStream(
        new BufferedOutputStream(
            new DeflaterOutputStream(raw, new Deflater(Deflater.BEST_SPEED), 1 << 16), 1 << 16));
  }

  /** Whether a value of {@code c} is written after a flag saying whether there is one. */
  private static boolean written(Column c) {
    return c.nullable() || c.type() == ColumnType.STRING || c.type() == ColumnType.BYTES;
  }

  private static void write(DataOutputStream out, Column c, Object v) throws IOException {
    if (written(c)) {
      out.writeBoolean(v != null);
      if (v == null) {
        return;
      }
    }
    switch (c.type()) {
      case BIGINT -> out.writeLong((Long) v);
      case INT -> out.writeInt((Integer) v);
      case SMALLINT -> out.writeShort((Short) v);
      case TINYINT -> out.writeByte((Byte) v);
      case BOOLEAN -> out.writeBoolean((Boolean) v);
      case STRING -> bytes(out, ((String) v).getBytes(StandardCharsets.UTF_8));
      case BYTES -> bytes(out, (byte[]) v);
    }
  }

  private static void bytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  private static Object read(DataInputStream in, ColumnType type, boolean flagged)
      throws IOException {
    if (flagged && !in.readBoolean()) {
      return null;
    }
    return switch (type) {
      case BIGINT -> in.readLong();
      case INT -> in.readInt();
      case SMALLINT -> in.readShort();
      case TINYINT -> in.readByte();
      case BOOLEAN -> in.readBoolean();
      case STRING -> new String(readBytes(in), StandardCharsets.UTF_8);
      case BYTES -> readBytes(in);
    };
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return b;
  }
}
