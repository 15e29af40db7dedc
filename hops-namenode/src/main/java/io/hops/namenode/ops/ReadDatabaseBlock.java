package io.hops.namenode.ops;

import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/**
 * The bytes behind a located block of a database file, for the namenode's data-transfer endpoint:
 * the block id is the file's inode id and its length the file's, which say which rows to read (read
 * committed: one PK, or one PPIS for the large tier). Null if they are not there, as for a replica
 * a DataNode does not have.
 */
public final class ReadDatabaseBlock extends Operation<byte[]> {
  private final SmallFileStore store;
  private final ExtendedBlock block;
  private byte[] data;

  public ReadDatabaseBlock(SmallFileStore store, ExtendedBlock block) {
    this.store = store;
    this.block = block;
  }

  @Override
  public String name() {
    return "readDatabaseBlock";
  }

  @Override
  public Object partitionHint() {
    return block.getBlockId();
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    data = store.read(tx, block.getBlockId(), block.getNumBytes());
  }

  @Override
  protected byte[] execute(ExecutePhase tx) {
    return data;
  }
}
