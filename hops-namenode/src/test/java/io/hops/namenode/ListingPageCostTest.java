package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A 10,000-entry directory listed page by page through the stock client costs each page what a page
 * of a 150-entry directory costs: the same accesses and the rows of one page (before, every page
 * read and sorted all 10,000 children).
 */
class ListingPageCostTest {
  private static final int LIMIT = 100;
  private static final int BIG = 10_000;
  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of(pagesOf(LIMIT));

  private static Configuration pagesOf(int limit) {
    Configuration conf = new Configuration(false);
    conf.setInt(DFSConfigKeys.DFS_LIST_LIMIT, limit);
    return conf;
  }

  @BeforeAll
  static void directories() throws Exception {
    for (int i = 0; i < BIG; i++) {
      assertThat(observed.fs().mkdirs(new Path(String.format("/big/d%05d", i)))).isTrue();
    }
    for (int i = 0; i < 150; i++) {
      assertThat(observed.fs().mkdirs(new Path(String.format("/small/d%05d", i)))).isTrue();
    }
  }

  /** Reads {@code dir} page by page through the client protocol; each page's accesses. */
  private static List<AccessCounts> pageCosts(String dir, List<String> names) throws Exception {
    ClientProtocol nn = observed.fs().getClient().getNamenode();
    List<AccessCounts> costs = new ArrayList<>();
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    while (true) {
      observed.forget();
      DirectoryListing page = nn.getListing(dir, after, false);
      List<AccessCounts> listings = observed.seen("getListing");
      assertThat(listings).hasSize(1);
      costs.add(listings.get(0));
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
  void aPageOfOneOwnersEntriesLooksUpItsOwnerAndGroupOnce() throws Exception {
    var names = observed.cluster().namenode().namesystem().users();
    ClientProtocol nn = observed.fs().getClient().getNamenode();
    nn.getListing("/big", HdfsFileStatus.EMPTY_NAME, false); // names cached
    long before = names.hits() + names.misses();
    DirectoryListing page = nn.getListing("/big", HdfsFileStatus.EMPTY_NAME, false);
    assertThat(page.getPartialListing()).hasSize(LIMIT);
    HdfsFileStatus first = page.getPartialListing()[0];
    assertThat(first.getOwner())
        .isEqualTo(UserGroupInformation.getCurrentUser().getShortUserName());
    for (HdfsFileStatus s : page.getPartialListing()) {
      assertThat(s.getOwner()).isEqualTo(first.getOwner());
      assertThat(s.getGroup()).isEqualTo(first.getGroup());
    }
    // One owner and one group on the whole page: two lookups, not two per entry.
    assertThat(names.hits() + names.misses() - before).isLessThanOrEqualTo(2);
  }

  @Test
  void theStockClientListsEveryEntryOnceInOrder() throws Exception {
    FileStatus[] all = observed.fs().listStatus(new Path("/big"));
    assertThat(all).hasSize(BIG);
    for (int i = 0; i < BIG; i++) {
      assertThat(all[i].getPath().getName()).isEqualTo(String.format("d%05d", i));
    }
    // The first page's count of what follows is exact, as HDFS's: the client sizes its list by it.
    DirectoryListing first =
        observed
            .fs()
            .getClient()
            .getNamenode()
            .getListing("/big", HdfsFileStatus.EMPTY_NAME, false);
    assertThat(first.getRemainingEntries()).isEqualTo(BIG - LIMIT);
  }
}
