package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.web.webhdfs.WebHdfsSides.Raw;
import io.hops.namenode.web.webhdfs.WebHdfsSides.Side;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Listings longer than one page ({@code dfs.ls.limit} = 3 on both namenodes, 10 entries):
 * LISTSTATUS streams every page in one body, LISTSTATUS_BATCH answers one page with {@code
 * remainingEntries}, and WebHdfsFileSystem's iterator walks the pages, as on HDFS.
 */
class WebHdfsListingLikeHdfsTest {
  private static WebHdfsSides sides;
  private static String u;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setInt("dfs.ls.limit", 3);
    sides = new WebHdfsSides("webhdfs-listing", conf);
    for (Side s : sides.both()) {
      for (int i = 0; i < 10; i++) {
        s.dfs().mkdirs(new Path("/many/d" + i));
      }
    }
    u = "&user.name=" + System.getProperty("user.name");
  }

  @AfterAll
  static void stop() throws IOException {
    if (sides != null) {
      sides.close();
    }
  }

  @Test
  void listStatusStreamsEveryPage() throws Exception {
    Raw hops = sides.hops.raw("GET", "/webhdfs/v1/many?op=LISTSTATUS" + u);
    Raw hdfs = sides.hdfs.raw("GET", "/webhdfs/v1/many?op=LISTSTATUS" + u);
    assertThat(hops.status()).isEqualTo(200);
    assertThat(names(hops.body())).isEqualTo(names(hdfs.body())).hasSize(10);
    assertThat(shape(hops.body())).isEqualTo(shape(hdfs.body()));
  }

  @Test
  void batchesAreOnePageWithTheRemainingCount() throws Exception {
    for (String start : new String[] {"", "&startafter=d2", "&startafter=d8", "&startafter=d9"}) {
      String q = "/webhdfs/v1/many?op=LISTSTATUS_BATCH" + start + u;
      Raw hops = sides.hops.raw("GET", q);
      Raw hdfs = sides.hdfs.raw("GET", q);
      assertThat(names(hops.body())).as(q).isEqualTo(names(hdfs.body()));
      if (start.isEmpty()) {
        assertThat(remaining(hops.body())).as(q).isEqualTo(remaining(hdfs.body()));
      } else {
        // A later page's count is a lower bound in hops (ops/GetListing.remaining: a range scan
        // does not know startAfter's rank); "more follow" or not is what clients read.
        assertThat(remaining(hops.body()).equals("0"))
            .as(q)
            .isEqualTo(remaining(hdfs.body()).equals("0"));
      }
    }
    assertThat(remaining(sides.hops.raw("GET", "/webhdfs/v1/many?op=LISTSTATUS_BATCH" + u).body()))
        .isEqualTo("7");
  }

  @Test
  void webHdfsFileSystemIteratesThePages() throws Exception {
    for (Side s : sides.both()) {
      try (WebHdfsFileSystem fs = s.web()) {
        List<String> names = new ArrayList<>();
        var it = fs.listStatusIterator(new Path("/many"));
        while (it.hasNext()) {
          names.add(it.next().getPath().getName());
        }
        assertThat(names).as(s.name()).hasSize(10).startsWith("d0", "d1").endsWith("d9");
        assertThat(fs.listStatus(new Path("/many"))).as(s.name()).hasSize(10);
      }
    }
  }

  private static List<String> names(String body) {
    List<String> out = new ArrayList<>();
    var m = java.util.regex.Pattern.compile("\"pathSuffix\":\"([^\"]*)\"").matcher(body);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private static String remaining(String body) {
    var m = java.util.regex.Pattern.compile("\"remainingEntries\":([0-9]+)").matcher(body);
    return m.find() ? m.group(1) : null;
  }

  /** The body with every number removed: HDFS's exact layout (line breaks, separators). */
  private static String shape(String body) {
    return body.replaceAll("[0-9]+", "N");
  }
}
