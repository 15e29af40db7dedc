package io.hops.namenode.web;

import io.hops.namenode.Namesystem;
import io.hops.namenode.check.Fsck;
import io.hops.namenode.rpc.SafeMode;
import io.hops.namenode.security.PermissionChecker;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
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
 * user's permissions; like HDFS, {@code /fsck} asks for no administrator.
 */
public final class FsckServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    ServletContext context = getServletContext();
    Namesystem ns = (Namesystem) context.getAttribute(WebServer.NAMESYSTEM);
    SafeMode safeMode = (SafeMode) context.getAttribute(WebServer.SAFE_MODE);
    Configuration conf = (Configuration) context.getAttribute(HttpServer2.CONF_CONTEXT_ATTRIBUTE);
    response.setContentType("text/plain");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    UserGroupInformation ugi = JspHelper.getUGI(context, request, conf);
    PrintWriter out = response.getWriter();
    PermissionChecker pc;
    try {
      pc = ugi.doAs((PrivilegedExceptionAction<PermissionChecker>) ns::checker);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "interrupted");
      return;
    }
    String remote = InetAddress.getByName(request.getRemoteAddr()).toString();
    new Fsck(
            ns.runner(),
            ns.blocks(),
            ns.smallFiles(),
            ns.statuses(),
            ns.snapshots(),
            ns.limits(),
            ns.conf(),
            safeMode,
            pc,
            ugi.toString(),
            remote,
            request.getParameterMap(),
            out)
        .run();
  }
}
