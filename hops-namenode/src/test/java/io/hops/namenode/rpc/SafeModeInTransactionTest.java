package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.resolve.Inodes;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.junit.jupiter.api.Test;

/**
 * Safe mode is checked inside the write's transaction, not only before it (issue 58, item 4): a
 * write that passed the quick check and then waited for a lock does not commit once safe mode was
 * entered meanwhile, as in HDFS, where the check is made under the namesystem lock.
 */
class SafeModeInTransactionTest {
  @Test
  void aWriteWaitingInItsTransactionDoesNotCommitAfterSafeModeIsEntered() throws Exception {
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client();
        DistributedFileSystem admin = cluster.client()) {
      fs.mkdirs(new Path("/d"));
      Storage storage = cluster.namenode().namesystem().storage();
      Future<Boolean> write;
      // Hold /d, so that a mkdirs below it passes the quick check and waits in its lock phase.
      try (Transaction holder = storage.begin()) {
        assertThat(holder.find(InodeRow.TABLE, Inodes.key(Inodes.ROOT_ID, "d"), LockMode.EXCLUSIVE))
            .isNotNull();
        write = writer.submit(() -> fs.mkdirs(new Path("/d/x")));
        Thread.sleep(700);
        assertThat(write.isDone()).as("the write waits for /d").isFalse();
        admin.setSafeMode(SafeModeAction.SAFEMODE_ENTER);
      }
      assertThatThrownBy(() -> write.get(60, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(SafeModeException.class)
          .hasMessageContaining("Cannot create directory /d/x. Name node is in safe mode.");
      admin.setSafeMode(SafeModeAction.SAFEMODE_LEAVE);
      assertThat(fs.exists(new Path("/d/x"))).isFalse();
      assertThat(fs.mkdirs(new Path("/d/y"))).isTrue();
    } finally {
      writer.shutdownNow();
    }
  }
}
