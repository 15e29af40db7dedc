package io.hops.namenode.web;

import io.hops.election.LeaderElection;
import io.hops.election.Membership;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.ReportOwnership;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.util.Time;

/**
 * {@code GET /datanodes}: every datanode this namenode knows, live, stale or dead, with its
 * capacity, its last heartbeat here and the namenode that applies its block reports.
 */
public final class DatanodesServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    BlockManager blocks = (BlockManager) getServletContext().getAttribute(WebServer.BLOCKS);
    DatanodeManager dm = blocks.datanodes();
    Configuration conf = (Configuration) getServletContext().getAttribute(WebServer.CONF);
    long staleAfter =
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
    LeaderElection election = blocks.election();
    Membership members = election == null ? Membership.EMPTY : election.membership();
    List<DatanodeState> nodes = new ArrayList<>(dm.all());
    nodes.sort(Comparator.comparing(n -> n.id().getXferAddr()));
    long now = Time.monotonicNow();
    int live = 0;
    int stale = 0;
    int dead = 0;
    for (DatanodeState n : nodes) {
      if (!dm.isLive(n)) {
        dead++;
      } else if (now - n.lastHeartbeat() > staleAfter) {
        stale++;
      } else {
        live++;
      }
    }
    PrintWriter out = Page.start(response, "Datanodes", "/datanodes");
    out.println("<p id=\"summary\">" + live + " live, " + stale + " stale, " + dead + " dead</p>");
    Page.filter(out);
    out.println(
        "<table class=\"filterable\" id=\"datanodes\"><tr><th>address</th><th>host</th>"
            + "<th>state</th><th>last heartbeat</th><th>capacity</th><th>used</th>"
            + "<th>remaining</th><th>transfers</th><th>failed volumes</th>"
            + "<th>block reports applied by</th><th>uuid</th></tr>");
    for (DatanodeState n : nodes) {
      String state =
          !dm.isLive(n)
              ? "<span class=\"bad\">dead</span>"
              : now - n.lastHeartbeat() > staleAfter ? "<span class=\"bad\">stale</span>" : "live";
      long owner = ReportOwnership.ownerOf(n.uuid(), members);
      out.println(
          "<tr><td>"
              + Page.escape(n.id().getXferAddr())
              + "</td><td><a href=\"http://"
              + Page.escape(n.id().getInfoAddr())
              + "/\">"
              + Page.escape(n.id().getHostName())
              + "</a></td><td>"
              + state
              + "</td><td>"
              + (n.heardFrom() ? (now - n.lastHeartbeat()) / 1000 + " s ago" : "not yet")
              + "</td><td>"
              + Page.bytes(n.capacity())
              + "</td><td>"
              + Page.bytes(n.dfsUsed())
              + "</td><td>"
              + Page.bytes(n.remaining())
              + "</td><td>"
              + n.xceivers()
              + "</td><td>"
              + volumeFailures(n)
              + "</td><td>"
              + (owner < 0 ? "-" : "namenode " + owner)
              + (n.ownsReports() ? " (this one)" : "")
              + "</td><td>"
              + Page.escape(n.uuid())
              + "</td></tr>");
    }
    out.println("</table>");
    Page.end(out);
  }

  /**
   * Its failed volumes as its heartbeats report them, as HDFS's Volume Failures tab: how many, the
   * locations, when the last failed and the capacity lost.
   */
  static String volumeFailures(DatanodeState n) {
    VolumeFailureSummary s = n.volumeFailureSummary();
    if (n.volumeFailures() == 0 && s == null) {
      return "0";
    }
    StringBuilder out = new StringBuilder("<span class=\"bad\">").append(n.volumeFailures());
    if (s != null) {
      out.append(": ")
          .append(Page.escape(String.join(", ", s.getFailedStorageLocations())))
          .append(" (last ")
          .append(Page.escape(new java.util.Date(s.getLastVolumeFailureDate()).toString()))
          .append(", ")
          .append(Page.bytes(s.getEstimatedCapacityLostTotal()))
          .append(" lost)");
    }
    return out.append("</span>").toString();
  }
}
