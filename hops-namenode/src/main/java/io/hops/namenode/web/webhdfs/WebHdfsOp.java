package io.hops.namenode.web.webhdfs;

import java.io.IOException;
import org.apache.hadoop.hdfs.web.resources.HttpOpParam;
import org.apache.hadoop.hdfs.web.resources.Param;

/** Helpers the per-method operation tables share. */
final class WebHdfsOp {
  private WebHdfsOp() {}

  /** HDFS's refusal of a request missing a parameter its operation needs. */
  static void require(HttpOpParam<?> op, Param<?, ?>... params) {
    for (Param<?, ?> p : params) {
      if (p.getValue() == null || p.getValueString() == null || p.getValueString().isEmpty()) {
        throw new IllegalArgumentException(
            "Required param "
                + p.getName()
                + " for op: "
                + op.getValueString()
                + " is null or empty");
      }
    }
  }

  /** HDFS's answer to an operation this HTTP method does not serve (or hops does not). */
  static UnsupportedOperationException unsupported(HttpOpParam<?> op) {
    return new UnsupportedOperationException(op + " is not supported");
  }

  /** An operation of one HTTP method. */
  interface Handler {
    Reply handle(WebHdfsContext c, WebHdfsRequest r) throws IOException;
  }
}
