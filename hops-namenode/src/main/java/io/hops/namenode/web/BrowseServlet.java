package io.hops.namenode.web;

import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.Date;
import java.util.List;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.StringUtils;

/**
 * {@code GET /browse?path=P}: the namespace browser. A directory lists its entries; a file shows
 * its status, its blocks and their locations, and a download link to a datanode's WebHDFS (the
 * bytes never pass through the namenode). It reads through this namenode's own RPC server with the
 * stock client, as the static web user ({@code hadoop.http.staticuser.user}, {@code dr.who}), so
 * HDFS's permission checks apply.
 */
public final class BrowseServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Configuration namenodeConf = (Configuration) getServletContext().getAttribute(WebServer.CONF);
    BlockManager blockManager = (BlockManager) getServletContext().getAttribute(WebServer.BLOCKS);
    String rpcUri = (String) getServletContext().getAttribute(WebServer.RPC_URI);
    String pathParam = request.getParameter("path");
    Path path = new Path(pathParam == null || pathParam.isEmpty() ? "/" : pathParam);
    String user = namenodeConf.get("hadoop.http.staticuser.user", "dr.who");
    Configuration conf = new Configuration(namenodeConf);
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    conf.setInt("ipc.client.connect.max.retries", 1);
    PrintWriter out = Page.start(response, path.toUri().getPath(), "/browse");
    out.println("<p id=\"crumbs\">" + crumbs(path) + "</p>");
    try {
      UserGroupInformation.createRemoteUser(user)
          .doAs(
              (PrivilegedExceptionAction<Void>)
                  () -> {
                    try (FileSystem fs = FileSystem.newInstance(URI.create(rpcUri), conf)) {
                      FileStatus st = fs.getFileStatus(path);
                      if (st.isDirectory()) {
                        listing(out, fs.listStatus(path));
                      } else {
                        file(
                            out,
                            blockManager.datanodes(),
                            rpcUri,
                            user,
                            st,
                            fs.getFileBlockLocations(st, 0, st.getLen()));
                      }
                    }
                    return null;
                  });
    } catch (FileNotFoundException e) {
      out.println("<p class=\"bad\">No such file or directory.</p>");
    } catch (AccessControlException e) {
      out.println("<p class=\"bad\">Permission denied to " + Page.escape(user) + ".</p>");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    Page.end(out);
  }

  private static void listing(PrintWriter out, FileStatus[] entries) {
    out.println("<p>" + entries.length + " entries</p>");
    Page.filter(out);
    out.println(
        "<table class=\"filterable\" id=\"listing\"><tr><th>permission</th><th>owner</th>"
            + "<th>group</th><th>size</th><th>modified</th><th>replication</th>"
            + "<th>block size</th><th>name</th></tr>");
    for (FileStatus s : entries) {
      out.println(
          "<tr><td>"
              + (s.isDirectory() ? "d" : "-")
              + s.getPermission()
              + "</td><td>"
              + Page.escape(s.getOwner())
              + "</td><td>"
              + Page.escape(s.getGroup())
              + "</td><td>"
              + (s.isDirectory() ? "" : StringUtils.byteDesc(s.getLen()))
              + "</td><td>"
              + new Date(s.getModificationTime())
              + "</td><td>"
              + (s.isDirectory() ? "" : s.getReplication())
              + "</td><td>"
              + (s.isDirectory() ? "" : StringUtils.byteDesc(s.getBlockSize()))
              + "</td><td><a href=\""
              + link(s.getPath())
              + "\">"
              + Page.escape(s.getPath().getName())
              + (s.isDirectory() ? "/" : "")
              + "</a></td></tr>");
    }
    out.println("</table>");
  }

  private static void file(
      PrintWriter out,
      DatanodeManager datanodes,
      String rpcUri,
      String user,
      FileStatus st,
      BlockLocation[] blocks)
      throws IOException {
    out.println("<table id=\"status\">");
    Page.row(out, "Size", Page.bytes(st.getLen()));
    Page.row(out, "Permission", "-" + FsPermission.createImmutable(st.getPermission().toShort()));
    Page.row(out, "Owner", st.getOwner() + ":" + st.getGroup());
    Page.row(out, "Modified", new Date(st.getModificationTime()).toString());
    Page.row(out, "Accessed", new Date(st.getAccessTime()).toString());
    Page.row(out, "Replication", Short.toString(st.getReplication()));
    Page.row(out, "Block size", Page.bytes(st.getBlockSize()));
    out.println("</table>");
    String download = downloadLink(datanodes, rpcUri, user, st.getPath(), blocks);
    out.println(
        download == null
            ? "<p>No live datanode to download from.</p>"
            : "<p><a id=\"download\" href=\""
                + Page.escape(download)
                + "\">Download</a>"
                + " (through a datanode's WebHDFS)</p>");
    out.println(
        "<h2>Blocks</h2><table id=\"blocks\"><tr><th>#</th><th>offset</th><th>length</th>"
            + "<th>locations</th></tr>");
    for (int i = 0; i < blocks.length; i++) {
      BlockLocation b = blocks[i];
      out.println(
          "<tr><td>"
              + i
              + "</td><td>"
              + b.getOffset()
              + "</td><td>"
              + b.getLength()
              + "</td><td>"
              + Page.escape(String.join(", ", b.getNames()))
              + (b.isCorrupt() ? " <span class=\"bad\">corrupt</span>" : "")
              + "</td></tr>");
    }
    out.println("</table>");
  }

  /** A datanode's WebHDFS OPEN of {@code path}: one that holds the first block, else any live. */
  private static String downloadLink(
      DatanodeManager dm, String rpcUri, String user, Path path, BlockLocation[] blocks)
      throws IOException {
    String first =
        blocks.length > 0 && blocks[0].getNames().length > 0 ? blocks[0].getNames()[0] : null;
    DatanodeState chosen = null;
    for (DatanodeState n : dm.live()) {
      if (!n.heardFrom()) {
        continue;
      }
      if (chosen == null || n.id().getXferAddr().equals(first)) {
        chosen = n;
      }
    }
    if (chosen == null) {
      return null;
    }
    URI nn = URI.create(rpcUri);
    return "http://"
        + chosen.id().getInfoAddr()
        + "/webhdfs/v1"
        + encodePath(path.toUri().getPath())
        + "?op=OPEN&offset=0&namenoderpcaddress="
        + nn.getHost()
        + ":"
        + nn.getPort()
        + "&user.name="
        + URLEncoder.encode(user, StandardCharsets.UTF_8);
  }

  private static String crumbs(Path path) {
    StringBuilder b = new StringBuilder("<a href=\"/browse?path=%2F\">/</a>");
    List<String> parts = List.of(path.toUri().getPath().split("/"));
    StringBuilder sofar = new StringBuilder();
    for (String p : parts) {
      if (p.isEmpty()) {
        continue;
      }
      sofar.append('/').append(p);
      b.append(" <a href=\"")
          .append(link(new Path(sofar.toString())))
          .append("\">")
          .append(Page.escape(p))
          .append("</a> /");
    }
    return b.toString();
  }

  private static String link(Path p) {
    return "/browse?path=" + URLEncoder.encode(p.toUri().getPath(), StandardCharsets.UTF_8);
  }

  private static String encodePath(String p) {
    StringBuilder b = new StringBuilder();
    for (String part : p.split("/")) {
      if (!part.isEmpty()) {
        b.append('/').append(URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20"));
      }
    }
    return b.length() == 0 ? "/" : b.toString();
  }
}
