package io.hops.bench.workload;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The file system operations the benchmark drives, named as in the workload files. The order is the
 * order of a per-operation sweep: read-only operations first, so they see the namespace as it was
 * set up, then the ones that change it.
 */
public enum Op {
  READ_FILE("open a file and read it to its end"),
  STAT_FILE("getFileStatus of a file"),
  STAT_DIR("getFileStatus of a directory"),
  LS_FILE("listStatus of a file"),
  LS_DIR("listStatus of a directory"),
  CONTENT_SUMMARY("getContentSummary of a directory"),
  CHMOD_FILE("setPermission of a file"),
  CHMOD_DIR("setPermission of a directory"),
  CHOWN_FILE("setOwner of a file"),
  CHOWN_DIR("setOwner of a directory"),
  SET_REPLICATION("setReplication of a file"),
  RENAME_FILE("rename a file to a new name in its directory"),
  CREATE_FILE("create a file (namespace.file-size bytes) and close it"),
  APPEND_FILE("append namespace.file-size bytes to a file and close it"),
  MKDIRS("mkdirs of a new directory"),
  DELETE_FILE("delete a file");

  private final String description;

  Op(String description) {
    this.description = description;
  }

  /** The name in workload files and reports: {@code read_file}, {@code mkdirs}, ... */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  public String description() {
    return description;
  }

  /**
   * Whether the operation works on one of the thread's existing files (a thread left with none,
   * after deletes, creates more before it runs one).
   */
  public boolean needsFile() {
    return switch (this) {
      case READ_FILE,
              STAT_FILE,
              LS_FILE,
              CHMOD_FILE,
              CHOWN_FILE,
              SET_REPLICATION,
              RENAME_FILE,
              APPEND_FILE,
              DELETE_FILE ->
          true;
      default -> false;
    };
  }

  /** The operation a key names, or an error listing the known keys. */
  public static Op byKey(String key) {
    for (Op op : values()) {
      if (op.key().equals(key.trim())) {
        return op;
      }
    }
    throw new IllegalArgumentException("unknown operation '" + key + "'; known: " + keys(", "));
  }

  public static String keys(String separator) {
    return Arrays.stream(values()).map(Op::key).collect(Collectors.joining(separator));
  }
}
