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
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * {@code GET /fsck?ugi=USER&path=PATH&...}: what the stock {@code DFSck} client asks for. As HDFS
 * without Kerberos, the caller is the {@code user.name} or {@code ugi} parameter, else the static
 * web user; the walk runs with that user's permissions.
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
    PrintWriter out = response.getWriter();
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user(request, conf));
    PermissionChecker pc;
    try {
      pc = ugi.doAs((PrivilegedExceptionAction<PermissionChecker>) ns::checker);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "interrupted");
      return;
    }
    String remote = InetAddress.getByName(request.getRemoteAddr()).toString();
    new Fsck(ns, safeMode, pc, ugi.toString(), remote, request.getParameterMap(), out).run();
  }

  private static String user(HttpServletRequest request, Configuration conf) {
    String user = request.getParameter("user.name");
    if (user == null && request.getParameter("ugi") != null) {
      user = request.getParameter("ugi").split(",")[0];
    }
    if (user == null || user.isEmpty()) {
      user =
          conf.get(
              CommonConfigurationKeys.HADOOP_HTTP_STATIC_USER,
              CommonConfigurationKeys.DEFAULT_HADOOP_HTTP_STATIC_USER);
    }
    return user;
  }
}
