package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.web.webhdfs.WebHdfsSides.Raw;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Authentication as HDFS does it, hops and Apache HDFS configured alike: anonymous requests refused
 * ({@code hadoop.http.authentication.simple.anonymous.allowed=false}), {@code user.name} accepted,
 * and {@code doas} allowed for a proxy user ({@code hadoop.proxyuser.alice.*}) and refused for
 * others. Same status, and same JSON body where there is one.
 */
class WebHdfsAuthLikeHdfsTest {
  private static WebHdfsSides sides;

  @BeforeAll
  static void start() throws IOException {
    UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    UserGroupInformation.createUserForTesting("bob", new String[] {"other"});
    Configuration conf = new Configuration(false);
    conf.setBoolean("hadoop.http.authentication.simple.anonymous.allowed", false);
    conf.set("hadoop.proxyuser.alice.hosts", "*");
    conf.set("hadoop.proxyuser.alice.users", "bob");
    sides = new WebHdfsSides("webhdfs-auth", conf);
    for (var s : sides.both()) {
      s.dfs().mkdirs(new Path("/bob"));
      s.dfs().setOwner(new Path("/bob"), "bob", "other");
      s.dfs().setPermission(new Path("/bob"), new FsPermission((short) 0700));
    }
  }

  @AfterAll
  static void stop() throws IOException {
    if (sides != null) {
      sides.close();
    }
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "GET, /webhdfs/v1/?op=GETHOMEDIRECTORY, 401",
    "GET, /webhdfs/v1/bob?op=LISTSTATUS, 401",
    "GET, /webhdfs/v1/?op=GETHOMEDIRECTORY&user.name=alice, 200",
    "GET, /webhdfs/v1/bob?op=LISTSTATUS&user.name=alice, 403",
    "GET, /webhdfs/v1/?op=GETHOMEDIRECTORY&user.name=alice&doas=bob, 200",
    "GET, /webhdfs/v1/bob?op=LISTSTATUS&user.name=alice&doas=bob, 200",
    "PUT, /webhdfs/v1/bob/made?op=MKDIRS&user.name=alice&doas=bob, 200",
    "GET, /webhdfs/v1/bob/made?op=GETFILESTATUS&user.name=bob, 200",
    "GET, /webhdfs/v1/?op=GETHOMEDIRECTORY&user.name=bob&doas=alice, 403",
    "GET, /webhdfs/v1/?op=GETHOMEDIRECTORY&user.name=alice&doas=carol, 403",
    "PUT, /webhdfs/v1/x?op=MKDIRS, 401",
  })
  void sameAnswerAsHdfs(String method, String pathAndQuery, int status) throws Exception {
    Raw hops = sides.hops.raw(method, pathAndQuery);
    Raw hdfs = sides.hdfs.raw(method, pathAndQuery);
    assertThat(hdfs.status()).as(hdfs.body()).isEqualTo(status);
    assertThat(hops.status()).as(hops.body()).isEqualTo(status);
    if (hdfs.body().startsWith("{")) {
      assertThat(withoutTimesAndIds(hops.body())).isEqualTo(withoutTimesAndIds(hdfs.body()));
    }
  }

  private static String withoutTimesAndIds(String json) {
    return json.replaceAll("\"(accessTime|modificationTime|fileId)\":[0-9]+,?", "");
  }
}
