package io.hops.namenode.web.webhdfs;

import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.hdfs.web.resources.GetOpParam;
import org.apache.hadoop.hdfs.web.resources.HttpOpParam;
import org.apache.hadoop.hdfs.web.resources.NamenodeAddressParam;
import org.apache.hadoop.hdfs.web.resources.Param;
import org.apache.hadoop.hdfs.web.resources.PostOpParam;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.StringUtils;

/**
 * Where CREATE, APPEND, OPEN and GETFILECHECKSUM go: a live datanode's own WebHDFS, which serves
 * the bytes with a DFS client of its own pointed at this namenode ({@code namenoderpcaddress}), so
 * no data passes through the namenode. As in HDFS: a replica holder of the block at the offset for
 * reads, appends and checksums; for creates the client's own host if it is a datanode, else any
 * live one; {@code excludedatanodes} honoured.
 */
final class DatanodeRedirect {
  private final DatanodeManager datanodes;
  private final ClientProtocol cp;
  private final InetSocketAddress rpc;

  DatanodeRedirect(DatanodeManager datanodes, ClientProtocol cp, InetSocketAddress rpc) {
    this.datanodes = datanodes;
    this.cp = cp;
    this.rpc = rpc;
  }

  /** The datanode URL for {@code op} on {@code path}, carrying {@code params} along. */
  URI uri(
      WebHdfsRequest r,
      HttpOpParam.Op op,
      long openOffset,
      String excludeDatanodes,
      Param<?, ?>... params)
      throws IOException {
    String path = r.path();
    if (!DFSUtilClient.isValidName(path)) {
      throw new InvalidPathException(path);
    }
    HdfsFileStatus status = null;
    if (needsReplica(op)) {
      status = cp.getFileInfo(path);
    }
    DatanodeInfo dn = choose(r, path, op, openOffset, excludes(excludeDatanodes), status);
    if (dn == null) {
      throw new IOException(
          "Failed to find datanode, suggest to check cluster health. excludeDatanodes="
              + excludeDatanodes);
    }
    String scheme = r.http().getScheme();
    String caller =
        UserGroupInformation.isSecurityEnabled()
            ? "&" + WebHdfsTokens.forRedirect(cp, rpc, r.delegation(), scheme)
            : Param.toSortedString("&", r.doAs(), r.user());
    String query =
        op.toQueryString()
            + caller
            + "&"
            + new NamenodeAddressParam(rpc.getHostString() + ":" + rpc.getPort())
            + Param.toSortedString("&", params);
    try {
      boolean https = "https".equals(scheme);
      return new URI(
          scheme,
          null,
          dn.getHostName(),
          https ? dn.getInfoSecurePort() : dn.getInfoPort(),
          WebHdfsFileSystem.PATH_PREFIX + path,
          query,
          null);
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
  }

  private static boolean needsReplica(HttpOpParam.Op op) {
    return op == GetOpParam.Op.OPEN
        || op == GetOpParam.Op.GETFILECHECKSUM
        || op == PostOpParam.Op.APPEND;
  }

  private DatanodeInfo choose(
      WebHdfsRequest r,
      String path,
      HttpOpParam.Op op,
      long openOffset,
      Set<String> excluded,
      HdfsFileStatus status)
      throws IOException {
    if (needsReplica(op)) {
      if (status == null) {
        throw new FileNotFoundException("File " + path + " not found.");
      }
      long len = status.getLen();
      if (op == GetOpParam.Op.OPEN && (openOffset < 0L || (openOffset >= len && len > 0))) {
        throw new IOException(
            "Offset="
                + openOffset
                + " out of the range [0, "
                + len
                + "); "
                + op
                + ", path="
                + path);
      }
      if (len > 0) {
        long offset = op == GetOpParam.Op.OPEN ? openOffset : len - 1;
        LocatedBlocks blocks = cp.getBlockLocations(path, offset, 1);
        if (blocks == null || blocks.locatedBlockCount() == 0) {
          throw new IOException("Block could not be located. Path=" + path + ", offset=" + offset);
        }
        for (DatanodeInfo d : blocks.get(0).getLocations()) {
          if (!d.isDecommissioned() && !isExcluded(d, excluded)) {
            return d;
          }
        }
        throw new IOException("No active and not excluded nodes contain this block");
      }
    }
    List<DatanodeInfo> candidates = new ArrayList<>();
    String client = r.http().getRemoteAddr();
    for (DatanodeState n : datanodes.live()) {
      if (!n.heardFrom() || n.bestStorage() == null) {
        continue;
      }
      DatanodeInfo d = n.info();
      if (isExcluded(d, excluded)) {
        continue;
      }
      if (d.getIpAddr().equals(client) && op != GetOpParam.Op.OPEN) {
        return d; // writes go to the client's own datanode first, as HDFS's placement does
      }
      candidates.add(d);
    }
    return candidates.isEmpty()
        ? null
        : candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
  }

  private static Set<String> excludes(String excludeDatanodes) {
    Set<String> out = new HashSet<>();
    if (excludeDatanodes != null) {
      out.addAll(StringUtils.getTrimmedStringCollection(excludeDatanodes));
    }
    return out;
  }

  /** {@code host} or {@code host:xferPort}, by name or address. */
  private static boolean isExcluded(DatanodeInfo d, Set<String> excluded) {
    return excluded.contains(d.getHostName())
        || excluded.contains(d.getIpAddr())
        || excluded.contains(d.getXferAddr())
        || excluded.contains(d.getHostName() + ":" + d.getXferPort());
  }
}
