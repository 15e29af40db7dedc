package org.apache.hadoop.hdfs.server.namenode;

import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.hdfs.protocol.AclException;

/**
 * A public door to Hadoop's own ACL transformations (merge, filter, replace), which are
 * package-private in the {@code hadoop-hdfs} jar: hops calls them rather than copying them, so that
 * every validation and its message ("Invalid ACL: ...") is exactly HDFS's.
 */
public final class HopsAclTransformation {
  private HopsAclTransformation() {}

  public static List<AclEntry> merge(List<AclEntry> existing, List<AclEntry> spec)
      throws AclException {
    return AclTransformation.mergeAclEntries(existing, spec);
  }

  public static List<AclEntry> filter(List<AclEntry> existing, List<AclEntry> spec)
      throws AclException {
    return AclTransformation.filterAclEntriesByAclSpec(existing, spec);
  }

  public static List<AclEntry> withoutDefault(List<AclEntry> existing) throws AclException {
    return AclTransformation.filterDefaultAclEntries(existing);
  }

  public static List<AclEntry> replace(List<AclEntry> existing, List<AclEntry> spec)
      throws AclException {
    return AclTransformation.replaceAclEntries(existing, spec);
  }
}
