package io.hops.namenode.resolve;

import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.hdfs.DFSUtilClient;

/** Splitting and checking the paths clients send, with HDFS's rules and exceptions. */
public final class PathNames {
  private PathNames() {}

  /**
   * The components of an absolute path, root first excluded: {@code /a/b} gives [a, b], {@code /}
   * gives none. Empty components are skipped and the others taken literally, as HDFS's
   * FSDirectory.resolvePath takes a path to read or change: no inode is named {@code .}, {@code ..}
   * or with a {@code :}, so such a path names nothing. A relative path is refused with {@link
   * InvalidPathException}; a path to create goes through {@link #checkCreatable} too.
   */
  public static String[] components(String src) {
    if (src == null || !src.startsWith("/")) {
      throw new InvalidPathException(String.valueOf(src));
    }
    // Every RPC splits its path: count, then cut, without a list or a regular expression.
    int len = src.length();
    String[] out = new String[depth(src)];
    int k = 0;
    int start = -1;
    for (int i = 0; i <= len; i++) {
      if (i == len || src.charAt(i) == '/') {
        if (start >= 0) {
          out[k++] = src.substring(start, i);
          start = -1;
        }
      } else if (start < 0) {
        start = i;
      }
    }
    return out;
  }

  /** How many components {@link #components} finds in {@code src}, without cutting them out. */
  public static int depth(String src) {
    int n = 0;
    int len = src.length();
    for (int i = 0; i < len; i++) {
      if (src.charAt(i) != '/' && (i == 0 || src.charAt(i - 1) == '/')) {
        n++;
      }
    }
    return n;
  }

  /**
   * Refuses a path HDFS would not create ({@code .}, {@code ..}, {@code :}, empty components,
   * relative paths) with {@link InvalidPathException}: as {@code create} does ({@code
   * createMessage}: "Invalid path name /a/../b"), else as FSDirectory.resolvePath does for a
   * DirOp.CREATE (mkdirs, rename's destination: "Invalid path name Invalid file name: /a/../b").
   */
  public static void checkCreatable(String src, boolean createMessage) {
    if (src == null || !DFSUtilClient.isValidName(src)) {
      throw new InvalidPathException(
          createMessage ? String.valueOf(src) : "Invalid file name: " + src);
    }
  }

  /** The path of the first {@code n} components. */
  public static String prefix(String[] components, int n) {
    if (n == 0) {
      return "/";
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append('/').append(components[i]);
    }
    return b.toString();
  }
}
