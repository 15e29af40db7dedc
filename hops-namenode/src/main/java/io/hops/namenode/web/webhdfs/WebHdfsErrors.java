package io.hops.namenode.web.webhdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.hdfs.web.JsonUtil;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failure as HDFS's WebHDFS answers it: {@code {"RemoteException":{"exception", "javaClassName",
 * "message"}}} with HDFS's status: 403 for security and every other {@code IOException} (that is
 * HDFS's rule, access denied or not), 404 for a missing file, 400 for bad parameters and
 * unsupported operations, 500 for anything else.
 */
final class WebHdfsErrors {
  private static final Logger LOG = LoggerFactory.getLogger(WebHdfsErrors.class);

  private WebHdfsErrors() {}

  static int status(Throwable e) {
    if (e instanceof SecurityException || e instanceof AuthorizationException) {
      return HttpServletResponse.SC_FORBIDDEN;
    }
    if (e instanceof FileNotFoundException) {
      return HttpServletResponse.SC_NOT_FOUND;
    }
    if (e instanceof IOException) {
      return HttpServletResponse.SC_FORBIDDEN;
    }
    if (e instanceof UnsupportedOperationException || e instanceof IllegalArgumentException) {
      return HttpServletResponse.SC_BAD_REQUEST;
    }
    return HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
  }

  /** The exception a client is shown: never a wrapper of the real one. */
  static Exception unwrap(Throwable t) {
    while ((t instanceof UndeclaredThrowableException
            || t instanceof java.lang.reflect.InvocationTargetException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof RemoteException r) {
      t = r.unwrapRemoteException();
    }
    return t instanceof Exception e ? e : new RuntimeException(t);
  }

  static void send(HttpServletResponse response, Throwable thrown) throws IOException {
    Exception e = unwrap(thrown);
    int status = status(e);
    if (status == HttpServletResponse.SC_INTERNAL_SERVER_ERROR) {
      LOG.warn("WebHDFS request failed", e);
    } else {
      LOG.debug("WebHDFS request refused", e);
    }
    if (response.isCommitted()) {
      return; // a listing failed half-way: the client sees a truncated body, as from HDFS
    }
    response.reset();
    new Reply(status, Reply.JSON, null, Reply.json(JsonUtil.toJsonString(e)).body()).send(response);
  }
}
