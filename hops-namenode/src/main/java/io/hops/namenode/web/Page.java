package io.hops.namenode.web;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.util.StringUtils;

/**
 * The frame every page of the web UI shares: the navigation and a small style sheet, all inline (no
 * file or script from elsewhere, nothing to build). The one script filters a page's tables.
 */
final class Page {
  private static final String[][] NAV = {
    {"/", "Overview"},
    {"/datanodes", "Datanodes"},
    {"/browse", "Browse"},
    {"/conf", "Configuration"},
    {"/logs.html", "Logs"},
    {"/jmx", "Metrics"},
  };

  private Page() {}

  static PrintWriter start(HttpServletResponse response, String title, String active)
      throws IOException {
    response.setContentType("text/html");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    PrintWriter out = response.getWriter();
    out.println("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">");
    out.println("<link rel=\"icon\" href=\"data:,\">");
    out.println("<title>hops: " + escape(title) + "</title><style>");
    out.println(
        "body{font-family:sans-serif;margin:0}main{margin:1em 2em}"
            + "nav{background:#234;padding:.6em 2em}nav a{color:#cde;margin-right:1.5em;"
            + "text-decoration:none}nav a.on{color:#fff;font-weight:bold}"
            + "td,th{padding:2px 10px;text-align:left;vertical-align:top}th{background:#eee}"
            + "table{border-collapse:collapse;margin-bottom:1em}tr:nth-child(even) td{background:#f7f7f7}"
            + ".bad{color:#b00;font-weight:bold}.ok{color:#070}input.filter{margin:.5em 0}");
    out.println("</style></head><body><nav>");
    for (String[] n : NAV) {
      out.println(
          "<a href=\""
              + n[0]
              + "\""
              + (n[0].equals(active) ? " class=\"on\"" : "")
              + ">"
              + n[1]
              + "</a>");
    }
    out.println("</nav><main><h1>" + escape(title) + "</h1>");
    return out;
  }

  /** A box that hides the rows of the tables marked {@code filterable} that do not match. */
  static void filter(PrintWriter out) {
    out.println("<input class=\"filter\" id=\"filter\" placeholder=\"filter rows\">");
  }

  static void end(PrintWriter out) {
    out.println("</main><script>");
    out.println(
        "(function(){var f=document.getElementById('filter');if(!f)return;"
            + "f.addEventListener('input',function(){var q=f.value.toLowerCase();"
            + "document.querySelectorAll('table.filterable tr').forEach(function(r,i){"
            + "if(r.querySelector('th'))return;"
            + "r.style.display=r.textContent.toLowerCase().indexOf(q)<0?'none':'';});});})();");
    out.println("</script></body></html>");
  }

  static void row(PrintWriter out, String name, String value) {
    out.println("<tr><th>" + escape(name) + "</th><td>" + escape(value) + "</td></tr>");
  }

  static String bytes(long n) {
    return n + " (" + StringUtils.byteDesc(n) + ")";
  }

  static String escape(String s) {
    return StatusServlet.escape(s);
  }
}
