package io.hops.namenode.web;

import io.hops.dal.Storage;
import io.hops.election.LeaderElection;
import io.hops.election.Member;
import io.hops.election.Membership;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.metrics.ClusterSnapshot;
import io.hops.namenode.metrics.DatabaseHealth;
import io.hops.namenode.metrics.NamenodeMetrics;
import io.hops.namenode.metrics.RecentOperations;
import io.hops.namenode.tx.OperationMetrics;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Map;
import javax.servlet.ServletContext;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.util.StringUtils;

/**
 * {@code GET /}: one small page of what an operator checks first: where the namenode listens, its
 * store, leadership and safe mode, capacity, block health and the datanodes.
 */
public final class StatusServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String target = request.getRequestURI();
    if (!"/".equals(target) && !"/index.html".equals(target)) {
      response.sendError(HttpServletResponse.SC_NOT_FOUND, target + " not found");
      return;
    }
    ServletContext context = getServletContext();
    Storage storage = (Storage) context.getAttribute(WebServer.STORAGE);
    TransactionRunner runner = (TransactionRunner) context.getAttribute(WebServer.RUNNER);
    BlockManager blocks = (BlockManager) context.getAttribute(WebServer.BLOCKS);
    NamenodeMetrics metrics = (NamenodeMetrics) context.getAttribute(WebServer.METRICS);
    if (metrics == null) {
      response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "the namenode is starting");
      return;
    }
    // Nothing here waits for the database: a page that hangs when it hangs cannot say so.
    ClusterSnapshot cluster = metrics.snapshots().get();
    DatabaseHealth database = metrics.database();
    DatanodeManager dm = blocks.datanodes();
    List<DatanodeState> nodes = new ArrayList<>(dm.all());
    nodes.sort(Comparator.comparing(n -> n.id().getXferAddr()));
    long live = nodes.stream().filter(dm::isLive).count();

    PrintWriter out = Page.start(response, "hops namenode", "/");
    out.println("<table>");
    row(out, "RPC address", (String) context.getAttribute(WebServer.RPC_URI));
    row(out, "Started", new Date((Long) context.getAttribute(WebServer.STARTED)).toString());
    row(out, "Metadata store", storage.engine() + ", " + database.describe());
    row(out, "Block pool", blocks.blockPoolId());
    row(out, "Leader", blocks.isLeader() ? "yes" : "no");
    row(out, "Safe mode", cluster.safeMode() ? "ON" : "OFF");
    row(out, "Datanodes", live + " live, " + (nodes.size() - live) + " dead");
    row(out, "Configured capacity", bytes(cluster.capacityTotal()));
    row(out, "DFS used", bytes(cluster.capacityUsed()));
    row(out, "DFS remaining", bytes(cluster.capacityRemaining()));
    row(out, "Under-replicated blocks", Long.toString(cluster.lowRedundancyBlocks()));
    row(out, "Blocks with corrupt replicas", Long.toString(cluster.corruptBlocks()));
    row(out, "Missing blocks", Long.toString(cluster.missingBlocks()));
    row(
        out,
        "Cluster values read",
        String.format(
            "%.1f s ago", (System.currentTimeMillis() - cluster.takenAtMillis()) / 1000.0));
    LeaderElection election = blocks.election();
    Membership members = election == null ? Membership.EMPTY : election.membership();
    out.println(
        "</table><h2>Namenodes</h2><table><tr><th>id</th><th>RPC</th><th>web UI</th>"
            + "<th>role</th></tr>");
    for (Member m : members.members()) {
      out.println(
          "<tr><td>"
              + m.id()
              + (election != null && m.id() == election.id() ? " (this one)" : "")
              + "</td><td>"
              + escape(m.rpcAddress())
              + "</td><td>"
              + (m.httpAddress() == null || m.httpAddress().isEmpty()
                  ? ""
                  : "<a href=\"http://"
                      + escape(m.httpAddress())
                      + "/\">"
                      + escape(m.httpAddress())
                      + "</a>")
              + "</td><td>"
              + (m.leader() ? "leader, epoch " + members.epoch() : "-")
              + "</td></tr>");
    }
    out.println(
        "</table><h2>Datanodes</h2><table><tr><th>address</th><th>uuid</th>"
            + "<th>state</th><th>capacity</th><th>used</th><th>remaining</th>"
            + "<th>reports</th></tr>");
    for (DatanodeState n : nodes) {
      out.println(
          "<tr><td>"
              + escape(n.id().getXferAddr())
              + "</td><td>"
              + escape(n.uuid())
              + "</td><td>"
              + (dm.isLive(n) ? "live" : "dead")
              + "</td><td>"
              + bytes(n.capacity())
              + "</td><td>"
              + bytes(n.dfsUsed())
              + "</td><td>"
              + bytes(n.remaining())
              + "</td><td>"
              + (n.ownsReports() ? "applied here" : "applied by another namenode")
              + "</td></tr>");
    }
    out.println("</table>");
    lastMinute(out, metrics);
    out.println(
        "<h2>Operations on this namenode since it started</h2>"
            + "<p>Latency percentiles are in <a href=\"/jmx?qry="
            + "Hadoop:service=NameNode,name=HopsNamenode\">HopsNamenode</a>.</p>");
    Page.filter(out);
    out.println(
        "<table class=\"filterable\"><tr><th>operation</th><th>count</th><th>failures</th>"
            + "<th>retries</th><th>mean latency (&micro;s)</th><th>database round trips per op</th>"
            + "</tr>");
    for (Map.Entry<String, OperationMetrics.Stats> e : runner.metrics().all().entrySet()) {
      OperationMetrics.Stats st = e.getValue();
      out.println(
          "<tr><td>"
              + escape(e.getKey())
              + "</td><td>"
              + st.count()
              + "</td><td>"
              + st.failures()
              + "</td><td>"
              + st.retries()
              + "</td><td>"
              + String.format("%.1f", st.meanMicros())
              + "</td><td>"
              + String.format("%.2f", st.count() == 0 ? 0.0 : (double) st.accesses() / st.count())
              + "</td></tr>");
    }
    out.println(
        "</table><p><a href=\"/jmx\">/jmx</a> &middot; <a href=\"/prom\">/prom</a> &middot;"
            + " <a href=\"/conf\">/conf</a> &middot; <a href=\"/fsck?path=%2F\">/fsck</a>"
            + " (as <code>hdfs fsck /</code>)</p>");
    Page.end(out);
  }

  private static void lastMinute(PrintWriter out, NamenodeMetrics metrics) {
    out.println("<h2>Operations in the last minute</h2>");
    Map<String, RecentOperations.Rate> rates = metrics.recent().lastMinute();
    if (rates.isEmpty()) {
      out.println("<p id=\"recent\">None.</p>");
      return;
    }
    double total = rates.values().stream().mapToDouble(RecentOperations.Rate::perSecond).sum();
    out.println(
        "<p id=\"recent\">"
            + String.format("%.2f", total)
            + " operations per second</p>"
            + "<table><tr><th>operation</th><th>per second</th><th>mean latency (&micro;s)</th>"
            + "<th>failures</th></tr>");
    rates.forEach(
        (op, r) ->
            out.println(
                "<tr><td>"
                    + escape(op)
                    + "</td><td>"
                    + String.format("%.2f", r.perSecond())
                    + "</td><td>"
                    + String.format("%.1f", r.meanMicros())
                    + "</td><td>"
                    + r.failures()
                    + "</td></tr>"));
    out.println("</table>");
  }

  private static void row(PrintWriter out, String name, String value) {
    out.println("<tr><th>" + escape(name) + "</th><td>" + escape(value) + "</td></tr>");
  }

  private static String bytes(long n) {
    return n + " (" + StringUtils.byteDesc(n) + ")";
  }

  static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
