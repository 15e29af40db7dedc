package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A 10,000-entry directory listed page by page through the stock client costs each page what a page
 * of a 150-entry directory costs: the same accesses and the rows of one page (before, every page
 * read and sorted all 10,000 children).
 */
class ListingPageCostTest {
  private static final int LIMIT = 100;
  private static final int BIG = 10_000;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static final List<AccessCounts> LISTINGS =
      Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(DFSConfigKeys.DFS_LIST_LIMIT, LIMIT);
    cluster = new HopsTestCluster(conf);
    fs = cluster.client();
    cluster
        .namenode()
        .namesystem()
        .runner()
        .observe(
            (op, counts) -> {
              if (op.equals("getListing")) {
                LISTINGS.add(counts);
              }
            });
    for (int i = 0; i < BIG; i++) {
      assertThat(fs.mkdirs(new Path(String.format("/big/d%05d", i)))).isTrue();
    }
    for (int i = 0; i < 150; i++) {
      assertThat(fs.mkdirs(new Path(String.format("/small/d%05d", i)))).isTrue();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  /** Reads {@code dir} page by page through the client protocol; each page's accesses. */
  private static List<AccessCounts> pageCosts(String dir, List<String> names) throws Exception {
    ClientProtocol nn = fs.getClient().getNamenode();
    List<AccessCounts> costs = new ArrayList<>();
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    while (true) {
      LISTINGS.clear();
      DirectoryListing page = nn.getListing(dir, after, false);
      assertThat(LISTINGS).hasSize(1);
      costs.add(LISTINGS.get(0));
      for (HdfsFileStatus s : page.getPartialListing()) {
        names.add(s.getLocalName());
      }
      if (!page.hasMore()) {
        return costs;
      }
      after = page.getLastName();
    }
  }

  @Test
  void everyPageOfTenThousandEntriesCostsWhatAPageOfASmallDirectoryCosts() throws Exception {
    List<String> smallNames = new ArrayList<>();
    List<AccessCounts> small = pageCosts("/small", smallNames);
    assertThat(small).hasSize(2);
    AccessCounts reference = small.get(0);
    // The directory's row and its ancestors, then one page and one row more.
    assertThat(reference.rowsRead()).isLessThanOrEqualTo(LIMIT + 4);

    List<String> names = new ArrayList<>();
    List<AccessCounts> big = pageCosts("/big", names);
    assertThat(big).hasSize(BIG / LIMIT);
    for (int i = 0; i < big.size(); i++) {
      assertThat(big.get(i)).as("accesses of page %d", i).isEqualTo(reference);
      assertThat(big.get(i).rowsRead())
          .as("rows read by page %d", i)
          .isLessThanOrEqualTo(reference.rowsRead());
    }
    assertThat(names).hasSize(BIG);
    for (int i = 0; i < BIG; i++) {
      assertThat(names.get(i)).isEqualTo(String.format("d%05d", i));
    }
  }

  @Test
  void theStockClientListsEveryEntryOnceInOrder() throws Exception {
    FileStatus[] all = fs.listStatus(new Path("/big"));
    assertThat(all).hasSize(BIG);
    for (int i = 0; i < BIG; i++) {
      assertThat(all[i].getPath().getName()).isEqualTo(String.format("d%05d", i));
    }
    // The first page's count of what follows is exact, as HDFS's: the client sizes its list by it.
    DirectoryListing first =
        fs.getClient().getNamenode().getListing("/big", HdfsFileStatus.EMPTY_NAME, false);
    assertThat(first.getRemainingEntries()).isEqualTo(BIG - LIMIT);
  }
}
