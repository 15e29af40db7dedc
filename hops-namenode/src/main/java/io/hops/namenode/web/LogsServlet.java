package io.hops.namenode.web;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.http.HttpServer2;

/**
 * {@code GET /logs.html}: the end of the newest log file in {@code hadoop.log.dir} (the whole
 * directory is at HttpServer2's {@code /logs/}), and the way to change log levels ({@code
 * /logLevel}). A namenode started without {@code -Dhadoop.log.dir} logs to its standard error,
 * which this page says. Administrators only, as HttpServer2's {@code /logs/} ({@code
 * dfs.cluster.administrators} when {@code hadoop.security.authorization} is on).
 */
public final class LogsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final int TAIL_BYTES = 64 * 1024;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!HttpServer2.hasAdministratorAccess(getServletContext(), request, response)) {
      return;
    }
    PrintWriter out = Page.start(response, "Logs", "/logs.html");
    out.println(
        "<p>Log levels: <a href=\"/logLevel\">/logLevel</a> (as <code>hadoop daemonlog</code>)."
            + "</p>");
    String dir = System.getProperty("hadoop.log.dir");
    File[] files = dir == null ? null : new File(dir).listFiles(File::isFile);
    if (files == null || files.length == 0) {
      out.println(
          "<p id=\"nolog\">This namenode writes its log to its standard error"
              + (dir == null ? "" : " (no files in " + Page.escape(dir) + ")")
              + ". Start it with <code>-Dhadoop.log.dir=DIR</code> and a file appender to read"
              + " the log here.</p>");
    } else {
      Arrays.sort(files, Comparator.comparingLong(File::lastModified).reversed());
      out.println("<p>All files: <a href=\"/logs/\">/logs/</a>. The end of the newest:</p>");
      out.println("<h2>" + Page.escape(files[0].getName()) + "</h2><pre id=\"tail\">");
      out.println(Page.escape(tail(files[0])));
      out.println("</pre>");
    }
    Page.end(out);
  }

  private static String tail(File f) throws IOException {
    try (RandomAccessFile r = new RandomAccessFile(f, "r")) {
      long from = Math.max(0, r.length() - TAIL_BYTES);
      byte[] b = new byte[(int) (r.length() - from)];
      r.seek(from);
      r.readFully(b);
      return new String(b, StandardCharsets.UTF_8);
    }
  }
}
