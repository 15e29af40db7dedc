package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operations of a writer touch the tail of its file only: addBlock, fsync (hflush) and complete
 * read the same accesses and the same number of rows for the 1,000th block of a file as for its 3rd
 * (before, each read every block row of the file with its replicas: an N-block file cost O(N²)
 * rows), and a 1,000-block file's blocks are all where they should be afterwards. A reader's
 * getBlockLocations of a block reads the same rows in a file of 100 or 1,000 blocks, and about what
 * it reads in a file of one block.
 */
class FileTailCostTest {
  private static final int BLOCK = 1024;

  @RegisterExtension
  static final ObservedCluster observed = ObservedCluster.of(smallBlocks()).withDatanodes(1);

  private static Configuration smallBlocks() {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    return conf;
  }

  /** Writes {@code blocks} full blocks, an hflush after each; the writer's calls, in order. */
  private static Map<String, List<AccessCounts>> write(Path p, int blocks) throws Exception {
    observed.forget();
    byte[] block = new byte[BLOCK];
    try (FSDataOutputStream out = observed.fs().create(p, true, 4096, (short) 1, BLOCK)) {
      for (int i = 0; i < blocks; i++) {
        out.write(block);
        out.hflush();
      }
    }
    return observed.seen();
  }

  private static AccessCounts last(List<AccessCounts> calls) {
    return calls.get(calls.size() - 1);
  }

  @Test
  void theThousandthBlockCostsWhatTheThirdCosts() throws Exception {
    Map<String, List<AccessCounts>> small = write(new Path("/tail/three"), 3);
    Map<String, List<AccessCounts>> big = write(new Path("/tail/thousand"), 1000);

    List<AccessCounts> addSmall = small.get("addBlock");
    List<AccessCounts> addBig = big.get("addBlock");
    assertThat(addBig).hasSizeGreaterThanOrEqualTo(1000);
    AccessCounts third = addSmall.get(2);
    AccessCounts thousandth = last(addBig);
    assertThat(thousandth).as("addBlock of block 1000 vs 3").isEqualTo(third);
    // Rows: the same but for the tail's replica rows, which datanodes report in their own time.
    for (AccessCounts c : addBig.subList(2, addBig.size())) {
      assertThat(c).isEqualTo(third);
      assertThat(c.rowsRead())
          .as("rows read by addBlock")
          .isLessThanOrEqualTo(third.rowsRead() + 4);
    }

    AccessCounts fsyncSmall = last(small.get("fsync"));
    AccessCounts fsyncBig = last(big.get("fsync"));
    assertThat(fsyncBig).isEqualTo(fsyncSmall);
    assertThat(fsyncBig.rowsRead()).isEqualTo(fsyncSmall.rowsRead());

    AccessCounts completeSmall = last(small.get("complete"));
    AccessCounts completeBig = last(big.get("complete"));
    assertThat(completeBig).isEqualTo(completeSmall);
    assertThat(completeBig.rowsRead()).isLessThanOrEqualTo(completeSmall.rowsRead() + 4);

    var located = observed.fs().getClient().getLocatedBlocks("/tail/thousand", 0, Long.MAX_VALUE);
    assertThat(located.getLocatedBlocks()).hasSize(1000);
    assertThat(located.getFileLength()).isEqualTo(1000L * BLOCK);
    for (int i = 0; i < 1000; i++) {
      assertThat(located.get(i).getStartOffset()).isEqualTo((long) i * BLOCK);
      assertThat(located.get(i).getBlockSize()).isEqualTo(BLOCK);
    }
    assertThat(observed.fs().getFileStatus(new Path("/tail/thousand")).getLen())
        .isEqualTo(1000L * BLOCK);
  }

  @Test
  void aReaderOfAFileBeingWrittenIsToldWhereItsLastBlockIsBeingWritten() throws Exception {
    Path p = new Path("/range/open");
    try (FSDataOutputStream out = observed.fs().create(p, true, 4096, (short) 1, BLOCK)) {
      out.write(new byte[BLOCK + 100]);
      out.hflush();
      HopsTestCluster.awaitReplicas(observed.fs(), p, 1);
      observed.forget();
      var located = observed.fs().getClient().getLocatedBlocks(p.toString(), 0, Long.MAX_VALUE);
      AccessCounts open = last(observed.seen("getBlockLocations"));
      // The complete first block and its replica; the last one where its pipeline writes it (its
      // expected replicas: the datanode reports it only once it is finalized).
      assertThat(open).hasToString("PK(SHARED) + B + PPIS x4");
      assertThat(located.isUnderConstruction()).isTrue();
      assertThat(located.isLastBlockComplete()).isFalse();
      assertThat(located.get(0).getLocations()).hasSize(1);
      assertThat(located.getLastLocatedBlock().getStartOffset()).isEqualTo(BLOCK);
      assertThat(located.getLastLocatedBlock().getLocations()).hasSize(1);
    }
    observed.forget();
    var closed = observed.fs().getClient().getLocatedBlocks(p.toString(), 0, Long.MAX_VALUE);
    assertThat(last(observed.seen("getBlockLocations"))).hasToString("PK(SHARED) + B + PPIS x3");
    assertThat(closed.isLastBlockComplete()).isTrue();
    assertThat(closed.getLastLocatedBlock().getLocations()).hasSize(1);
  }

  /** Writes {@code blocks} full blocks in one go. */
  private static void writePlain(Path p, int blocks) throws Exception {
    byte[] block = new byte[BLOCK];
    try (FSDataOutputStream out = observed.fs().create(p, true, 4096, (short) 1, BLOCK)) {
      for (int i = 0; i < blocks; i++) {
        block[0] = (byte) i;
        out.write(block);
      }
    }
  }

  /** The accesses of getBlockLocations for one byte of block {@code index}, and the answer. */
  private static AccessCounts readOneBlock(String path, int index, List<Object> answer)
      throws Exception {
    observed.forget();
    var located = observed.fs().getClient().getLocatedBlocks(path, (long) index * BLOCK + 7, 1);
    answer.add(located);
    return last(observed.seen("getBlockLocations"));
  }

  @Test
  void readingOneBlockOfAThousandCostsWhatReadingOneOfAHundredCosts() throws Exception {
    writePlain(new Path("/range/one"), 1);
    writePlain(new Path("/range/three"), 3);
    writePlain(new Path("/range/hundred"), 100);
    writePlain(new Path("/range/thousand"), 1000);
    HopsTestCluster.awaitReplicas(observed.fs(), new Path("/range/thousand"), 1);
    List<Object> answers = new ArrayList<>();
    AccessCounts hundred = readOneBlock("/range/hundred", 50, answers);
    AccessCounts thousand = readOneBlock("/range/thousand", 500, answers);
    AccessCounts one = readOneBlock("/range/one", 0, answers);
    AccessCounts three = readOneBlock("/range/three", 1, answers);
    assertThat(thousand).as("accesses for block 500 of 1,000 vs 50 of 100").isEqualTo(hundred);
    // A small file is read whole: its blocks in one scan, then its replicas and corrupt replicas
    // (its blocks are complete: no expected replicas, and a reader asks for no re-replication
    // entries).
    assertThat(one).hasToString("PK(SHARED) + B + PPIS x3");
    // The offset rows around the block and of the last block, the two block rows and their
    // replicas (11 rows): the same for 100 and 1,000 blocks (before, every block row of the file),
    // and no more than for a 1- or 3-block file but for the last block's rows.
    assertThat(thousand.rowsRead())
        .as("rows read, 1,000 vs 100 blocks")
        .isEqualTo(hundred.rowsRead());
    assertThat(thousand.rowsRead()).isLessThanOrEqualTo(one.rowsRead() + 6);
    assertThat(thousand.rowsRead()).isLessThanOrEqualTo(three.rowsRead() + 6);
    assertThat(thousand.total()).isLessThanOrEqualTo(one.total() + 6);
    // What a client asks at open (the first ten blocks): the same for 100 and 1,000 blocks.
    observed.forget();
    observed.fs().getClient().getLocatedBlocks("/range/hundred", 0, 10L * BLOCK);
    AccessCounts openHundred = last(observed.seen("getBlockLocations"));
    observed.forget();
    observed.fs().getClient().getLocatedBlocks("/range/thousand", 0, 10L * BLOCK);
    AccessCounts openThousand = last(observed.seen("getBlockLocations"));
    assertThat(openThousand).isEqualTo(openHundred);
    assertThat(openThousand.rowsRead()).isEqualTo(openHundred.rowsRead());
    assertThat(openThousand.rowsRead()).isLessThanOrEqualTo(60);

    var located = (org.apache.hadoop.hdfs.protocol.LocatedBlocks) answers.get(1);
    assertThat(located.getFileLength()).isEqualTo(1000L * BLOCK);
    assertThat(located.getLocatedBlocks()).hasSize(1);
    assertThat(located.get(0).getStartOffset()).isEqualTo(500L * BLOCK);
    assertThat(located.get(0).getLocations()).hasSize(1);
    assertThat(located.getLastLocatedBlock().getStartOffset()).isEqualTo(999L * BLOCK);
    assertThat(located.getLastLocatedBlock().getLocations()).hasSize(1);
    assertThat(located.isLastBlockComplete()).isTrue();

    // What a reader sees is the block it asked for, from its replica.
    try (var in = observed.fs().open(new Path("/range/thousand"))) {
      in.seek(500L * BLOCK);
      assertThat(in.read()).isEqualTo(500 & 0xFF);
    }
    // A range over the whole file is still every block, each with its replica.
    var all = observed.fs().getClient().getLocatedBlocks("/range/thousand", 0, Long.MAX_VALUE);
    assertThat(all.getLocatedBlocks()).hasSize(1000);
    assertThat(all.getLocatedBlocks()).allMatch(b -> b.getLocations().length == 1);
  }
}
