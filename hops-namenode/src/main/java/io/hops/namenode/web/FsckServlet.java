package io.hops.namenode.web;

import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.PermissionCheckers;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import javax.servlet.ServletContext;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.JspHelper;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * {@code GET /fsck?ugi=USER&path=PATH&...}: what the stock {@code DFSck} client asks for. The
 * caller is found as HDFS's FsckServlet finds it ({@code JspHelper.getUGI}): without Kerberos the
 * {@code user.name} or {@code ugi} parameter, else the static web user; with Kerberos the user the
 * authentication filter (SPNEGO) or a {@code delegation=} token names. The walk runs with that
 * user's permissions; like HDFS, {@code /fsck} asks for no administrator. The walk and its report
 * are {@code check/Fsck}'s; this only finds the caller and hands it the request.
 */
public final class FsckServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  /** {@code check/Fsck}'s walk for one request, printing HDFS's report to {@code out}. */
  @FunctionalInterface
  public interface Walk {
    /**
     * @param pc the caller's permissions
     * @param caller how the report names the caller, e.g. {@code alice (auth:SIMPLE)}
     * @param params the request's parameters, as DFSck sends them
     */
    void run(
        PermissionChecker pc,
        String caller,
        String remoteAddress,
        Map<String, String[]> params,
        PrintWriter out);
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    ServletContext context = getServletContext();
    PermissionCheckers checkers = (PermissionCheckers) context.getAttribute(WebServer.CHECKERS);
    Walk fsck = (Walk) context.getAttribute(WebServer.FSCK);
    Configuration conf = (Configuration) context.getAttribute(HttpServer2.CONF_CONTEXT_ATTRIBUTE);
    response.setContentType("text/plain");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    UserGroupInformation ugi = JspHelper.getUGI(context, request, conf);
    PrintWriter out = response.getWriter();
    PermissionChecker pc;
    try {
      pc = ugi.doAs((PrivilegedExceptionAction<PermissionChecker>) checkers::ofCaller);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "interrupted");
      return;
    }
    String remote = InetAddress.getByName(request.getRemoteAddr()).toString();
    fsck.run(pc, ugi.toString(), remote, request.getParameterMap(), out);
  }
}
