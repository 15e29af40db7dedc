package io.hops.namenode.web.webhdfs;

import java.io.IOException;
import java.security.SecureRandom;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.web.resources.BufferSizeParam;
import org.apache.hadoop.hdfs.web.resources.ConcatSourcesParam;
import org.apache.hadoop.hdfs.web.resources.NewLengthParam;
import org.apache.hadoop.hdfs.web.resources.PostOpParam;

/** WebHDFS's POST operations: APPEND by redirect, CONCAT, TRUNCATE, UNSETSTORAGEPOLICY. */
final class PostOps {
  private static final SecureRandom RANDOM = new SecureRandom();

  private PostOps() {}

  static Reply handle(WebHdfsContext c, WebHdfsRequest r) throws IOException {
    PostOpParam op = r.get(PostOpParam.NAME, PostOpParam.DEFAULT, PostOpParam::new);
    ClientProtocol cp = c.cp();
    String path = r.path();
    switch (op.getValue()) {
      case APPEND -> {
        return Reply.redirect(
            c.redirect()
                .uri(
                    r,
                    op.getValue(),
                    -1L,
                    GetOps.excluded(r),
                    r.get(BufferSizeParam.NAME, BufferSizeParam.DEFAULT, BufferSizeParam::new)),
            GetOps.noRedirect(r));
      }
      case CONCAT -> {
        ConcatSourcesParam sources =
            r.get(ConcatSourcesParam.NAME, ConcatSourcesParam.DEFAULT, ConcatSourcesParam::new);
        WebHdfsOp.require(op, sources);
        cp.concat(path, sources.getAbsolutePaths());
        return Reply.okUntyped();
      }
      case TRUNCATE -> {
        NewLengthParam newLength =
            r.get(NewLengthParam.NAME, NewLengthParam.DEFAULT, NewLengthParam::new);
        WebHdfsOp.require(op, newLength);
        // Each REST request is its own client, as in HDFS.
        String client = "DFSClient_" + RANDOM.nextLong();
        return Reply.json("boolean", cp.truncate(path, newLength.getValue(), client));
      }
      case UNSETSTORAGEPOLICY -> {
        cp.unsetStoragePolicy(path);
        return Reply.okUntyped();
      }
      case UNSETECPOLICY -> {
        cp.unsetErasureCodingPolicy(path);
        return Reply.okUntyped();
      }
      default -> throw WebHdfsOp.unsupported(op);
    }
  }
}
