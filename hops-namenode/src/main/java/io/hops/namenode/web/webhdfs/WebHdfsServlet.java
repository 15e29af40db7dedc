package io.hops.namenode.web.webhdfs;

import io.hops.namenode.audit.AuditLogging;
import io.hops.namenode.blocks.DatanodeManager;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import javax.servlet.ServletContext;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.hdfs.web.resources.AclPermissionParam;
import org.apache.hadoop.hdfs.web.resources.UserParam;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * {@code /webhdfs/v1/<path>?op=...}: Hadoop's WebHDFS REST API on the namenode's HTTP port. Each
 * request runs as its caller ({@code user.name}, {@code doas}) against the client protocol the RPC
 * server serves; replies and errors are the JSON HDFS writes (Hadoop's own {@code JsonUtil}), with
 * HDFS's status codes. File data never passes here: CREATE, APPEND, OPEN and GETFILECHECKSUM are
 * redirected to a datanode's WebHDFS.
 */
public final class WebHdfsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private static final String CLIENT_PROTOCOL = "hops.webhdfs.client-protocol";
  private static final String NAMENODE_CONF = "hops.webhdfs.conf";
  private static final String DATANODES = "hops.webhdfs.datanodes";
  private static final String RPC_URI = "hops.webhdfs.rpc-uri";

  /**
   * Serves WebHDFS on {@code server} (before it starts). The web server's authentication filter,
   * HDFS's {@code AuthFilter}, stands in front of it: simple ({@code user.name}) or SPNEGO, and a
   * request with {@code delegation=} passes it to be checked here against the token store. {@code
   * conf} is the web server's, {@code namenodeConf} the namenode's, which the calls read; a call
   * that reads or writes data is redirected to one of {@code datanodes}.
   */
  public static void addTo(
      HttpServer2 server,
      Configuration conf,
      Configuration namenodeConf,
      DatanodeManager datanodes,
      ClientProtocol cp,
      String rpcUri) {
    UserParam.setUserPattern(
        conf.get(
            HdfsClientConfigKeys.DFS_WEBHDFS_USER_PATTERN_KEY,
            HdfsClientConfigKeys.DFS_WEBHDFS_USER_PATTERN_DEFAULT));
    AclPermissionParam.setAclPermissionPattern(
        conf.get(
            HdfsClientConfigKeys.DFS_WEBHDFS_ACL_PERMISSION_PATTERN_KEY,
            HdfsClientConfigKeys.DFS_WEBHDFS_ACL_PERMISSION_PATTERN_DEFAULT));
    // doas= is authorized by the hadoop.proxyuser.* rules, which the namenode reads at start and
    // on every refresh (HopsNameNode, security/SecurityRefresh).
    server.setAttribute(CLIENT_PROTOCOL, cp);
    server.setAttribute(NAMENODE_CONF, namenodeConf);
    server.setAttribute(DATANODES, datanodes);
    server.setAttribute(RPC_URI, rpcUri);
    server.addServlet("webhdfs", WebHdfsFileSystem.PATH_PREFIX + "/*", WebHdfsServlet.class);
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    serve(request, response, GetOps::handle);
  }

  @Override
  protected void doPut(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    serve(request, response, PutOps::handle);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    serve(request, response, PostOps::handle);
  }

  @Override
  protected void doDelete(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    serve(request, response, DeleteOps::handle);
  }

  private void serve(
      HttpServletRequest request, HttpServletResponse response, WebHdfsOp.Handler handler)
      throws IOException {
    try {
      WebHdfsContext c = context();
      WebHdfsRequest r = new WebHdfsRequest(request, c.conf());
      UserGroupInformation ugi = r.ugi();
      try (AutoCloseable audited =
          AuditLogging.webHdfsCall(InetAddress.getByName(request.getRemoteAddr()))) {
        ugi.doAs(
            (PrivilegedExceptionAction<Void>)
                () -> {
                  handler.handle(c, r).send(response);
                  return null;
                });
      }
    } catch (Exception e) {
      WebHdfsErrors.send(response, e);
    }
  }

  private WebHdfsContext context() throws IOException {
    ServletContext sc = getServletContext();
    ClientProtocol cp = (ClientProtocol) sc.getAttribute(CLIENT_PROTOCOL);
    Configuration conf = (Configuration) sc.getAttribute(NAMENODE_CONF);
    DatanodeManager datanodes = (DatanodeManager) sc.getAttribute(DATANODES);
    if (cp == null || conf == null || datanodes == null) {
      throw new RetriableException("Namenode is in startup mode");
    }
    URI rpc = URI.create((String) sc.getAttribute(RPC_URI));
    InetSocketAddress rpcAddress = new InetSocketAddress(rpc.getHost(), rpc.getPort());
    return new WebHdfsContext(
        cp, conf, new DatanodeRedirect(datanodes, cp, rpcAddress), rpcAddress);
  }
}
