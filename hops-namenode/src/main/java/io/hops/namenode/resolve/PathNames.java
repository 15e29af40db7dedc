package io.hops.namenode.resolve;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.hdfs.DFSUtilClient;

/** Splitting and checking the paths clients send, with HDFS's rules and exceptions. */
public final class PathNames {
  private PathNames() {}

  /**
   * The components of an absolute path, root first excluded: {@code /a/b} gives [a, b], {@code /}
   * gives none. Refuses what HDFS refuses ({@code .}, {@code ..}, {@code :}, relative paths) with
   * {@link InvalidPathException}.
   */
  public static String[] components(String src) {
    if (src == null || !DFSUtilClient.isValidName(src)) {
      throw new InvalidPathException(String.valueOf(src));
    }
    List<String> out = new ArrayList<>();
    for (String c : src.split("/")) {
      if (!c.isEmpty()) {
        out.add(c);
      }
    }
    return out.toArray(new String[0]);
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
