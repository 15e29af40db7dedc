package io.hops.namenode.web.webhdfs;

import java.io.IOException;
import org.apache.hadoop.hdfs.web.resources.DeleteOpParam;
import org.apache.hadoop.hdfs.web.resources.RecursiveParam;
import org.apache.hadoop.hdfs.web.resources.SnapshotNameParam;

/** WebHDFS's DELETE operations (snapshots, which hops has not, are refused by the namenode). */
final class DeleteOps {
  private DeleteOps() {}

  static Reply handle(WebHdfsContext c, WebHdfsRequest r) throws IOException {
    DeleteOpParam op = r.get(DeleteOpParam.NAME, DeleteOpParam.DEFAULT, DeleteOpParam::new);
    if (op.getValue() == DeleteOpParam.Op.DELETE) {
      boolean recursive =
          r.get(RecursiveParam.NAME, RecursiveParam.DEFAULT, RecursiveParam::new).getValue();
      return Reply.json("boolean", c.cp().delete(r.path(), recursive));
    }
    if (op.getValue() == DeleteOpParam.Op.DELETESNAPSHOT) {
      SnapshotNameParam name =
          r.get(SnapshotNameParam.NAME, SnapshotNameParam.DEFAULT, SnapshotNameParam::new);
      WebHdfsOp.require(op, name);
      c.cp().deleteSnapshot(r.path(), name.getValue());
      return Reply.ok();
    }
    throw WebHdfsOp.unsupported(op);
  }
}
