package org.apache.hadoop.hdfs.server.blockmanagement;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeAdminProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeID;

/**
 * Hadoop's hosts lists over entries read from the database rather than from files, so every
 * namenode matches datanodes against them exactly as HDFS does: the plain include and exclude lists
 * ({@link HostFileManager}: a host with no port matches every port on its address) and the JSON
 * hosts file of {@code CombinedHostFileManager} (admin states and maintenance expiry per host).
 * Here because HDFS's {@code HostSet}, {@code HostProperties} and {@code parseEntry} are
 * package-private.
 */
public final class HopsHostLists {
  private HopsHostLists() {}

  /** A manager with these entries, each as a hosts file line (names resolved as HDFS does). */
  public static HostFileManager of(Collection<String> includes, Collection<String> excludes) {
    HostFileManager m = new HostFileManager();
    m.refresh(set("included", includes), set("excluded", excludes));
    return m;
  }

  /**
   * The include list's entries that none of {@code found} (datanodes' resolved addresses) matches,
   * as HDFS's getDatanodeListForReport finds them: an entry without a port is matched by any
   * datanode on its address.
   */
  public static List<InetSocketAddress> unmatchedIncludes(
      HostConfigManager lists, Collection<InetSocketAddress> found) {
    HostSet known = new HostSet();
    for (InetSocketAddress a : found) {
      if (!a.isUnresolved()) {
        known.add(a);
      }
    }
    List<InetSocketAddress> out = new ArrayList<>();
    for (InetSocketAddress a : lists.getIncludes()) {
      if (!known.matchedBy(a)) {
        out.add(a);
      }
    }
    return out;
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

  /**
   * A manager answering as {@code CombinedHostFileManager} does over a JSON hosts file of these
   * entries: included when some entry is NORMAL and matches, or when none is NORMAL; excluded when
   * a matching entry is DECOMMISSIONED; the maintenance expiry of a matching IN_MAINTENANCE entry.
   */
  public static HostConfigManager combined(Collection<DatanodeAdminProperties> entries) {
    CombinedHostFileManager.HostProperties p = new CombinedHostFileManager.HostProperties();
    for (DatanodeAdminProperties e : entries) {
      InetSocketAddress a =
          CombinedHostFileManager.parseEntry("the stored hosts file", e.getHostName(), e.getPort());
      if (a != null) {
        p.add(a.getAddress(), e);
      }
    }
    return new Combined(p);
  }

  private static final class Combined extends HostConfigManager {
    private final CombinedHostFileManager.HostProperties p;
    private Configuration conf;

    Combined(CombinedHostFileManager.HostProperties p) {
      this.p = p;
    }

    @Override
    public Iterable<InetSocketAddress> getIncludes() {
      return p.getIncludes();
    }

    @Override
    public Iterable<InetSocketAddress> getExcludes() {
      return p.getExcludes();
    }

    @Override
    public boolean isIncluded(DatanodeID dn) {
      return p.isIncluded(dn.getResolvedAddress());
    }

    @Override
    public boolean isExcluded(DatanodeID dn) {
      return p.isExcluded(dn.getResolvedAddress());
    }

    @Override
    public String getUpgradeDomain(DatanodeID dn) {
      return p.getUpgradeDomain(dn.getResolvedAddress());
    }

    @Override
    public long getMaintenanceExpirationTimeInMS(DatanodeID dn) {
      return p.getMaintenanceExpireTimeInMS(dn.getResolvedAddress());
    }

    @Override
    public void refresh() throws IOException {
      throw new UnsupportedOperationException(
          "refresh: the stored hosts lists are read again by DatanodeAdmin");
    }

    @Override
    public void setConf(Configuration conf) {
      this.conf = conf;
    }

    @Override
    public Configuration getConf() {
      return conf;
    }
  }
}
