package org.apache.hadoop.hdfs.server.blockmanagement;

import java.net.InetSocketAddress;
import java.util.Collection;

/**
 * Hadoop's {@link HostFileManager} over hosts lists read from the database rather than from files,
 * so every namenode matches datanodes against the lists exactly as HDFS does (a host with no port
 * matches every port on its address). Here because HDFS's {@code HostSet} and {@code parseEntry}
 * are package-private.
 */
public final class HopsHostLists {
  private HopsHostLists() {}

  /** A manager with these entries, each as a hosts file line (names resolved as HDFS does). */
  public static HostFileManager of(Collection<String> includes, Collection<String> excludes) {
    HostFileManager m = new HostFileManager();
    m.refresh(set("included", includes), set("excluded", excludes));
    return m;
  }

  private static HostSet set(String type, Collection<String> entries) {
    HostSet s = new HostSet();
    for (String e : entries) {
      InetSocketAddress a = HostFileManager.parseEntry(type, "the stored hosts list", e);
      if (a != null) {
        s.add(a);
      }
    }
    return s;
  }
}
