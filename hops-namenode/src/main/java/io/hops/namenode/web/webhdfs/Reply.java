package io.hops.namenode.web.webhdfs;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.hdfs.web.JsonUtil;

/** What a WebHDFS operation answers: HDFS's status code, media type and body. */
record Reply(int status, String contentType, URI location, Body body) {
  static final String JSON = "application/json";
  static final String OCTETS = "application/octet-stream";

  /** Writes a body once the status is known to be a success. */
  interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  /** 200 with a JSON body. */
  static Reply json(String js) {
    byte[] b = js.getBytes(StandardCharsets.UTF_8);
    return new Reply(HttpServletResponse.SC_OK, JSON, null, out -> out.write(b));
  }

  /** {@code {"key":value}}, as HDFS answers booleans, paths and locations. */
  static Reply json(String key, Object value) {
    return json(JsonUtil.toJsonString(key, value));
  }

  /** 200, empty, as HDFS answers operations without a result (setOwner, setAcl, ...). */
  static Reply ok() {
    return new Reply(HttpServletResponse.SC_OK, OCTETS, null, null);
  }

  /** 200, empty, no media type (HDFS's concat, checkAccess, unsetStoragePolicy). */
  static Reply okUntyped() {
    return new Reply(HttpServletResponse.SC_OK, null, null, null);
  }

  /** 307 to a datanode, or 200 with {@code {"Location":...}} when the client asked noredirect. */
  static Reply redirect(URI uri, boolean noRedirect) {
    if (noRedirect) {
      return json("Location", uri);
    }
    return new Reply(HttpServletResponse.SC_TEMPORARY_REDIRECT, OCTETS, uri, null);
  }

  void send(HttpServletResponse response) throws IOException {
    response.setStatus(status);
    if (contentType != null) {
      response.setContentType(contentType);
    }
    if (location != null) {
      response.setHeader("Location", location.toASCIIString());
    }
    if (body == null) {
      response.setContentLength(0);
      return;
    }
    OutputStream out = response.getOutputStream();
    body.writeTo(out);
    out.flush();
  }
}
