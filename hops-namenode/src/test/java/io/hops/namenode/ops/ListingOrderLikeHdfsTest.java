package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Listing order and paging of names with non-ASCII bytes, against hops and Apache HDFS (a
 * MiniDFSCluster) side by side: HDFS orders names by signed bytes, the order hops now keys them in,
 * so every page, read as one range scan from {@code startAfter}, holds what HDFS's page holds.
 */
class ListingOrderLikeHdfsTest {
  /**
   * Names whose signed and unsigned byte orders differ: 2-, 3- and 4-byte UTF-8 next to ASCII, a
   * continuation byte 0x80 (U+0080 is C2 80), and prefixes of one another.
   */
  private static final List<String> NAMES =
      List.of(
          "a",
          "B",
          "é",
          "ü",
          "aé",
          "ab",
          "a€",
          "a\u0080",
          "a\u00ff",
          "日本",
          "日",
          "Z",
          "_",
          "aa",
          "\uD83D\uDE00",
          "a b",
          "ß",
          "zz",
          "1",
          "~",
          "\u0080",
          "\u07ff",
          "\u0800",
          "a\u0080b");

  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsFs;
  private static DistributedFileSystem hdfsFs;

  @BeforeAll
  static void start() throws Exception {
    Configuration small = new Configuration(false);
    small.setInt(DFSConfigKeys.DFS_LIST_LIMIT, 4);
    hops = new HopsTestCluster(small);
    hdfs = ApacheHdfs.start("listing-order", small);
    hopsFs = hops.client();
    hdfsFs =
        (DistributedFileSystem)
            FileSystem.get(
                hdfs.getURI(), ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT));
    for (DistributedFileSystem fs : List.of(hopsFs, hdfsFs)) {
      for (String n : NAMES) {
        assertThat(fs.mkdirs(new Path("/order/" + n))).isTrue();
      }
      assertThat(fs.createNewFile(new Path("/order/a\u00e9/file"))).isTrue();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    hopsFs.close();
    hdfsFs.close();
    hops.close();
    hdfs.shutdown();
  }

  private static List<String> names(FileStatus[] listing) {
    List<String> out = new ArrayList<>();
    for (FileStatus s : listing) {
      out.add(s.getPath().getName());
    }
    return out;
  }

  /** Every page of {@code dir} from {@code startAfter}: its names, then "more" or "end". */
  private static List<List<String>> pages(ClientProtocol nn, String dir, byte[] startAfter)
      throws Exception {
    List<List<String>> out = new ArrayList<>();
    byte[] after = startAfter;
    while (true) {
      DirectoryListing page = nn.getListing(dir, after, false);
      List<String> names = new ArrayList<>();
      for (HdfsFileStatus s : page.getPartialListing()) {
        names.add(s.getLocalName());
      }
      names.add(page.hasMore() ? "more" : "end");
      out.add(names);
      if (!page.hasMore()) {
        return out;
      }
      after = page.getLastName();
    }
  }

  @Test
  void listingOrderOfNonAsciiNamesIsHdfsOrder() throws Exception {
    List<String> expected = names(hdfsFs.listStatus(new Path("/order")));
    assertThat(expected).hasSize(NAMES.size());
    // HDFS's order is not Java's nor unsigned bytes': "é" (C3 A9) before "1".
    assertThat(expected.indexOf("é")).isLessThan(expected.indexOf("1"));
    assertThat(names(hopsFs.listStatus(new Path("/order")))).isEqualTo(expected);
    List<String> iterated = new ArrayList<>();
    var it = hopsFs.listStatusIterator(new Path("/order"));
    while (it.hasNext()) {
      iterated.add(it.next().getPath().getName());
    }
    assertThat(iterated).isEqualTo(expected);
  }

  @Test
  void everyPageFromEveryStartAfterIsHdfsPage() throws Exception {
    ClientProtocol hopsNn = hopsFs.getClient().getNamenode();
    ClientProtocol hdfsNn = hdfsFs.getClient().getNamenode();
    List<String> starts = new ArrayList<>(NAMES);
    // Cursors that name no entry, between and around the non-ASCII ones.
    starts.addAll(List.of("", "a\u0000", "a\u007f", "aé0", "\u00ff", "\uffff", "日本語", "0", "{"));
    for (String start : starts) {
      byte[] after = start.getBytes(StandardCharsets.UTF_8);
      assertThat(pages(hopsNn, "/order", after))
          .as("pages after \"%s\"", start)
          .isEqualTo(pages(hdfsNn, "/order", after));
    }
    assertSameFirstPage(hopsNn, hdfsNn);
  }

  /** MariaDB keeps names with their sign bits flipped (VARBINARY compares unsigned): same pages. */
  @Test
  void everyPageOverMariadbIsHdfsPage() throws Exception {
    Configuration small = new Configuration(false);
    small.setInt(DFSConfigKeys.DFS_LIST_LIMIT, 4);
    HopsTestCluster onMariadb = HopsTestCluster.onMariadbOrNull(small);
    assumeTrue(onMariadb != null, "HOPS_TEST_MYSQL_URL is not set");
    try (onMariadb;
        DistributedFileSystem fs = onMariadb.client()) {
      for (String n : NAMES) {
        assertThat(fs.mkdirs(new Path("/order/" + n))).isTrue();
      }
      assertThat(fs.createNewFile(new Path("/order/a\u00e9/file"))).isTrue();
      ClientProtocol nn = fs.getClient().getNamenode();
      ClientProtocol hdfsNn = hdfsFs.getClient().getNamenode();
      for (String start : List.of("", "a", "é", "a\u007f", "日本語", "\u0080")) {
        byte[] after = start.getBytes(StandardCharsets.UTF_8);
        assertThat(pages(nn, "/order", after))
            .as("pages after \"%s\" on MariaDB", start)
            .isEqualTo(pages(hdfsNn, "/order", after));
      }
      assertThat(names(fs.listStatus(new Path("/order"))))
          .isEqualTo(names(hdfsFs.listStatus(new Path("/order"))));
      assertThat(fs.exists(new Path("/order/a\u00e9/file"))).isTrue();
      assertSameFirstPage(nn, hdfsNn);
    }
  }

  private static void assertSameFirstPage(ClientProtocol hopsNn, ClientProtocol hdfsNn)
      throws Exception {
    DirectoryListing hopsFirst = hopsNn.getListing("/order", HdfsFileStatus.EMPTY_NAME, false);
    DirectoryListing hdfsFirst = hdfsNn.getListing("/order", HdfsFileStatus.EMPTY_NAME, false);
    assertThat(hopsFirst.getRemainingEntries()).isEqualTo(hdfsFirst.getRemainingEntries());
  }
}
