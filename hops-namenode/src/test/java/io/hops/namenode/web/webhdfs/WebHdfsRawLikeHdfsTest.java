package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.namenode.web.webhdfs.WebHdfsSides.Raw;
import io.hops.namenode.web.webhdfs.WebHdfsSides.Side;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Raw WebHDFS requests, the same against hops and against Apache HDFS, in order: the HTTP status,
 * and the JSON body field by field (times, inode ids and ports aside), or for a redirect its target
 * path and query (the datanode's address and the namenode's RPC address aside). Covers the JSON of
 * every read, and bad input: unknown or misplaced {@code op}, missing and malformed parameters, bad
 * offsets, percent-encoded paths, {@code ..}, users without access, anonymous requests.
 */
class WebHdfsRawLikeHdfsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> VARYING = Set.of("accessTime", "modificationTime", "fileId");

  private static WebHdfsSides sides;
  private static String su;

  @BeforeAll
  static void start() throws Exception {
    su = UserGroupInformation.getCurrentUser().getShortUserName();
    UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    UserGroupInformation.createUserForTesting("bob", new String[] {"other"});
    sides = new WebHdfsSides("webhdfs-raw");
    for (Side s : sides.both()) {
      fixture(s);
    }
  }

  @AfterAll
  static void stop() throws IOException {
    if (sides != null) {
      sides.close();
    }
  }

  private static void fixture(Side s) throws IOException {
    var fs = s.dfs();
    fs.mkdirs(new Path("/raw/dir/sub"));
    fs.setPermission(new Path("/raw"), new FsPermission((short) 0755));
    try (FSDataOutputStream out = fs.create(new Path("/raw/file"), (short) 1)) {
      out.write("hello webhdfs\n".getBytes(StandardCharsets.UTF_8));
    }
    fs.createNewFile(new Path("/raw/a b"));
    fs.createNewFile(new Path("/raw/empty"));
    fs.setXAttr(
        new Path("/raw/file"),
        "user.a",
        "1".getBytes(StandardCharsets.UTF_8),
        java.util.EnumSet.of(XAttrSetFlag.CREATE));
    fs.setXAttr(
        new Path("/raw/file"),
        "user.b",
        new byte[] {0, 1, 2},
        java.util.EnumSet.of(XAttrSetFlag.CREATE));
    fs.modifyAclEntries(
        new Path("/raw/file"), AclEntry.parseAclSpec("user:alice:r--,group:staff:r-x", true));
    fs.modifyAclEntries(
        new Path("/raw/dir"), AclEntry.parseAclSpec("default:user:alice:rwx", true));
    fs.mkdirs(new Path("/raw/private"));
    fs.setPermission(new Path("/raw/private"), new FsPermission((short) 0700));
    fs.createNewFile(new Path("/raw/private/f"));
    fs.mkdirs(new Path("/raw/q"));
    fs.setQuota(new Path("/raw/q"), 10, 1L << 30);
    fs.setStoragePolicy(new Path("/raw/dir"), "COLD");
    fs.mkdirs(new Path("/put"));
    fs.setPermission(new Path("/put"), new FsPermission((short) 0777));
  }

  private static Arguments req(String method, String pathAndQuery) {
    return Arguments.of(method, pathAndQuery);
  }

  static Stream<Arguments> requests() {
    String u = "&user.name=" + System.getProperty("user.name");
    return Stream.of(
        // ---- reads: the JSON HDFS writes ----
        req("GET", "/webhdfs/v1/raw/file?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/dir?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1?op=LISTSTATUS" + u),
        req("GET", "/webhdfs/v1/raw?op=LISTSTATUS" + u),
        req("GET", "/webhdfs/v1/raw/file?op=LISTSTATUS" + u),
        req("GET", "/webhdfs/v1/raw/dir/sub?op=LISTSTATUS" + u),
        req("GET", "/webhdfs/v1/raw?op=LISTSTATUS_BATCH" + u),
        req("GET", "/webhdfs/v1/raw?op=LISTSTATUS_BATCH&startAfter=dir" + u),
        req("GET", "/webhdfs/v1/raw?op=GETCONTENTSUMMARY" + u),
        req("GET", "/webhdfs/v1/raw/q?op=GETCONTENTSUMMARY" + u),
        req("GET", "/webhdfs/v1/raw/q?op=GETQUOTAUSAGE" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETACLSTATUS" + u),
        req("GET", "/webhdfs/v1/raw/dir?op=GETACLSTATUS" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETXATTRS&encoding=text" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETXATTRS&encoding=hex" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETXATTRS&xattr.name=user.b&encoding=base64" + u),
        req(
            "GET",
            "/webhdfs/v1/raw/file?op=GETXATTRS&xattr.name=user.a&xattr.name=user.b&encoding=text"
                + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETXATTRS&xattr.name=user.zz&encoding=text" + u),
        req("GET", "/webhdfs/v1/raw/file?op=LISTXATTRS" + u),
        req("GET", "/webhdfs/v1/raw/file?op=CHECKACCESS&fsaction=r--" + u),
        req("GET", "/webhdfs/v1/raw/private?op=CHECKACCESS&fsaction=r-x&user.name=bob"),
        req("GET", "/webhdfs/v1/raw/file?op=CHECKACCESS&fsaction=r--&user.name=alice"),
        req("GET", "/webhdfs/v1/?op=GETHOMEDIRECTORY&user.name=alice"),
        req("GET", "/webhdfs/v1/?op=GETHOMEDIRECTORY"),
        req("GET", "/webhdfs/v1/?op=GETDELEGATIONTOKEN" + u),
        req("GET", "/webhdfs/v1/?op=GETDELEGATIONTOKEN&renewer=alice" + u),
        req("GET", "/webhdfs/v1/?op=GETDELEGATIONTOKEN&delegation=abc" + u),
        req("GET", "/webhdfs/v1/?op=GETTRASHROOT&user.name=alice"),
        req("GET", "/webhdfs/v1/raw/dir?op=GETSTORAGEPOLICY" + u),
        req("GET", "/webhdfs/v1/raw/dir/sub?op=GETSTORAGEPOLICY" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETSTORAGEPOLICY" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&offset=3&length=4&buffersize=100" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&noredirect=true" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETFILECHECKSUM" + u),
        req(
            "GET",
            "/webhdfs/v1/raw/file?OP=getfilestatus&USER.NAME=" + System.getProperty("user.name")),
        // ---- paths ----
        req("GET", "/webhdfs/v1/raw/a%20b?op=GETFILESTATUS" + u),
        // a path to read or change is taken literally, empty components skipped; one to create
        // must be a valid name
        req("GET", "/webhdfs/v1/raw/dir/../file?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/dir/%2E%2E/file?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/dir%2F..%2Ffile?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/./file?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw//file?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw%2F%2Ffile?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/dir/../file?op=LISTSTATUS" + u),
        req("GET", "/webhdfs/v1/raw//dir?op=LISTSTATUS" + u),
        req("GET", "/webhdfs/v1/raw/a:b?op=GETFILESTATUS" + u),
        req("PUT", "/webhdfs/v1/raw/dir/../file?op=SETPERMISSION&permission=600" + u),
        req("PUT", "/webhdfs/v1/raw/dir/../x?op=MKDIRS" + u),
        req("PUT", "/webhdfs/v1/raw//x?op=MKDIRS" + u),
        req("PUT", "/webhdfs/v1/raw/a:b?op=MKDIRS" + u),
        req("PUT", "/webhdfs/v1/raw/dir/../file?op=RENAME&destination=/raw/r" + u),
        req("DELETE", "/webhdfs/v1/raw/dir/../file?op=DELETE" + u),
        req("GET", "/webhdfs/v1/raw/%zz?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/%66ile?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/file/?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/nope?op=GETFILESTATUS" + u),
        req("GET", "/webhdfs/v1/raw/nope?op=LISTSTATUS" + u),
        req("GET", "/webhdfs/v1/raw/nope?op=GETCONTENTSUMMARY" + u),
        req("GET", "/webhdfs/v1/raw/nope?op=OPEN" + u),
        req("GET", "/webhdfs/v1/raw/nope?op=GETACLSTATUS" + u),
        req("GET", "/webhdfs/v1/raw/private/f?op=GETFILESTATUS&user.name=bob"),
        req("GET", "/webhdfs/v1/raw/private?op=LISTSTATUS"),
        req("GET", "/webhdfs/v1/raw?op=LISTSTATUS"),
        // ---- bad parameters and operations ----
        req("GET", "/webhdfs/v1/raw/file?op=FOO" + u),
        req("GET", "/webhdfs/v1/raw/file" + "?user.name=" + System.getProperty("user.name")),
        req("GET", "/webhdfs/v1/raw/file?op=MKDIRS" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETXATTRS" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETXATTRS&encoding=rot13" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETXATTRS&xattr.name=noprefix&encoding=text" + u),
        req("GET", "/webhdfs/v1/raw/file?op=CHECKACCESS" + u),
        req("GET", "/webhdfs/v1/raw/file?op=CHECKACCESS&fsaction=abc" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&offset=-1" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&offset=100000" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&offset=abc" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&length=-5" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&buffersize=0" + u),
        req("GET", "/webhdfs/v1/raw/file?op=GETFILESTATUS&user.name=1bad"),
        req("GET", "/webhdfs/v1/raw/file?op=GETFILESTATUS&user.name="),
        req("GET", "/webhdfs/v1/raw/dir?op=LISTSTATUS_BATCH&startAfter=zzz" + u),
        req("PUT", "/webhdfs/v1/put/m?op=MKDIRS&permission=999" + u),
        req("PUT", "/webhdfs/v1/put/m?op=MKDIRS&permission=1777" + u),
        req("GET", "/webhdfs/v1/put/m?op=GETFILESTATUS" + u),
        req("PUT", "/webhdfs/v1/put/m2?op=MKDIRS&permission=700&unmaskedpermission=777" + u),
        req("GET", "/webhdfs/v1/put/m2?op=GETFILESTATUS" + u),
        req("PUT", "/webhdfs/v1/put/m?op=SETOWNER" + u),
        req("PUT", "/webhdfs/v1/put/m?op=SETOWNER&owner=alice" + u),
        req("PUT", "/webhdfs/v1/put/m?op=SETOWNER&group=staff&user.name=bob"),
        req("PUT", "/webhdfs/v1/put/m?op=RENAME" + u),
        req("PUT", "/webhdfs/v1/put/m?op=RENAME&destination=/put/m3" + u),
        req("PUT", "/webhdfs/v1/put/m3?op=RENAME&destination=/put/m2&renameoptions=OVERWRITE" + u),
        req("PUT", "/webhdfs/v1/put/m3?op=RENAME&destination=/put/m4&renameoptions=BOGUS" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETREPLICATION&replication=abc" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETREPLICATION&replication=2" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETTIMES&modificationtime=1000&accesstime=2000" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETPERMISSION&permission=640" + u),
        req("GET", "/webhdfs/v1/raw/empty?op=GETFILESTATUS" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETXATTR&xattr.name=user.x&xattr.value=1" + u),
        req(
            "PUT",
            "/webhdfs/v1/raw/empty?op=SETXATTR&xattr.name=noprefix&xattr.value=1&flag=CREATE" + u),
        req(
            "PUT",
            "/webhdfs/v1/raw/empty?op=SETXATTR&xattr.name=user.x&xattr.value=0x41&flag=CREATE" + u),
        req(
            "PUT",
            "/webhdfs/v1/raw/empty?op=SETXATTR&xattr.name=user.x&xattr.value=%22v%22&flag=CREATE"
                + u),
        req("GET", "/webhdfs/v1/raw/empty?op=GETXATTRS&encoding=text" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=REMOVEXATTR&xattr.name=user.x" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=REMOVEXATTR&xattr.name=user.x" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETACL&aclspec=bogus" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETACL" + u),
        req(
            "PUT",
            "/webhdfs/v1/raw/empty?op=SETACL&aclspec=user::rw-,user:bob:r--,group::r--,other::---"
                + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=MODIFYACLENTRIES&aclspec=user:alice:rw-" + u),
        req("GET", "/webhdfs/v1/raw/empty?op=GETACLSTATUS" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=REMOVEACLENTRIES&aclspec=user:bob" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=REMOVEACLENTRIES&aclspec=user:bob:r--" + u),
        req("GET", "/webhdfs/v1/raw/empty?op=GETACLSTATUS" + u),
        req("PUT", "/webhdfs/v1/raw/dir?op=REMOVEDEFAULTACL" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=REMOVEACL" + u),
        req("GET", "/webhdfs/v1/raw/empty?op=GETACLSTATUS" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETSTORAGEPOLICY" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETSTORAGEPOLICY&storagepolicy=NOPE" + u),
        req("PUT", "/webhdfs/v1/raw/empty?op=SETSTORAGEPOLICY&storagepolicy=ALL_SSD" + u),
        req("GET", "/webhdfs/v1/raw/empty?op=GETSTORAGEPOLICY" + u),
        req("POST", "/webhdfs/v1/raw/empty?op=UNSETSTORAGEPOLICY" + u),
        req("GET", "/webhdfs/v1/raw/empty?op=GETSTORAGEPOLICY" + u),
        req("PUT", "/webhdfs/v1/raw/file?op=BOGUS" + u),
        req("PUT", "/webhdfs/v1/put/new?op=CREATE&overwrite=true&replication=1" + u),
        req("PUT", "/webhdfs/v1/put/new?op=CREATE&permission=600&noredirect=true" + u),
        req("PUT", "/webhdfs/v1/put/new?op=CREATE&blocksize=-3" + u),
        req("PUT", "/webhdfs/v1/put/new?op=CREATE&excludedatanodes=127.0.0.1" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&excludedatanodes=127.0.0.1" + u),
        req("GET", "/webhdfs/v1/raw/file?op=OPEN&excludedatanodes=10.9.9.9" + u),
        req("POST", "/webhdfs/v1/raw/file?op=TRUNCATE" + u),
        req("POST", "/webhdfs/v1/raw/file?op=TRUNCATE&newlength=abc" + u),
        req("POST", "/webhdfs/v1/raw/file?op=CONCAT" + u),
        req("POST", "/webhdfs/v1/raw/file?op=CONCAT&sources=/raw/nope" + u),
        req("POST", "/webhdfs/v1/raw/file?op=APPEND" + u),
        req("POST", "/webhdfs/v1/raw/nope?op=APPEND" + u),
        req("POST", "/webhdfs/v1/raw/file?op=FOO" + u),
        req("POST", "/webhdfs/v1/raw/file" + "?user.name=" + System.getProperty("user.name")),
        req("DELETE", "/webhdfs/v1/raw/dir?op=DELETE" + u),
        req("DELETE", "/webhdfs/v1/raw/nope?op=DELETE" + u),
        req("DELETE", "/webhdfs/v1/raw/private?op=DELETE&recursive=true&user.name=bob"),
        req("DELETE", "/webhdfs/v1/raw/dir?op=DELETE&recursive=maybe" + u),
        req("DELETE", "/webhdfs/v1/raw/dir?op=FOO" + u),
        req("DELETE", "/webhdfs/v1/put/m2?op=DELETE&recursive=true" + u),
        req("GET", "/webhdfs/v1/put?op=LISTSTATUS" + u));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("requests")
  void sameAnswerAsHdfs(String method, String pathAndQuery) throws Exception {
    Raw hops = sides.hops.raw(method, pathAndQuery);
    Raw hdfs = sides.hdfs.raw(method, pathAndQuery);
    assertThat(normalized(hops)).as(hops.body()).isEqualTo(normalized(hdfs));
  }

  /**
   * Where hops' namenode answers differently from HDFS's, shown through WebHDFS (the stock RPC
   * client never sends such paths): hops has the {@code DB} storage policy. Asserted as they are,
   * so that a change shows up here. With snapshots served (the default), the root's status says
   * snapshottable and a diff report of a plain directory fails, both as in HDFS.
   */
  @Test
  void knownDifferencesFromHdfs() throws Exception {
    String u = "&user.name=" + su;
    String root = "/webhdfs/v1/?op=GETFILESTATUS" + u;
    assertThat(sides.hdfs.raw("GET", root).body()).contains("\"snapshotEnabled\":true");
    assertThat(sides.hops.raw("GET", root).body()).contains("\"snapshotEnabled\":true");
    String diff = "/webhdfs/v1/raw/dir?op=GETSNAPSHOTDIFF" + u;
    Raw hdfsDiff = sides.hdfs.raw("GET", diff);
    Raw hopsDiff = sides.hops.raw("GET", diff);
    assertThat(hopsDiff.status()).isEqualTo(hdfsDiff.status()).isEqualTo(403);
    assertThat(hopsDiff.body()).isEqualTo(hdfsDiff.body());
    String policies = "/webhdfs/v1/?op=GETALLSTORAGEPOLICY" + u;
    Map<String, Object> hops = normalized(sides.hops.raw("GET", policies));
    Map<String, Object> hdfs = normalized(sides.hdfs.raw("GET", policies));
    assertThat(hops.toString()).contains("name=DB");
    assertThat(withoutDbPolicy(hops)).isEqualTo(hdfs);
  }

  @Test
  void namenodeHealthyAfterBadInput() throws Exception {
    for (Arguments a : requests().toList()) {
      Object[] r = a.get();
      sides.hops.raw((String) r[0], (String) r[1]);
    }
    assertThat(sides.hops.dfs().getFileStatus(new Path("/raw/file")).getLen()).isEqualTo(14);
    Raw ok = sides.hops.raw("GET", "/webhdfs/v1/raw/file?op=GETFILESTATUS&user.name=" + su);
    assertThat(ok.status()).isEqualTo(200);
    assertThat(ok.contentType()).startsWith("application/json");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> withoutDbPolicy(Map<String, Object> m) {
    var body = (Map<String, Object>) m.get("body");
    var policies = (Map<String, Object>) body.get("BlockStoragePolicies");
    var list = (List<Map<String, Object>>) policies.get("BlockStoragePolicy");
    list.removeIf(p -> "DB".equals(p.get("name")));
    return m;
  }

  /** What must be equal: status, and the body's fields, or a redirect's path and query. */
  private static Map<String, Object> normalized(Raw r) throws IOException {
    Map<String, Object> m = new TreeMap<>();
    m.put("status", r.status());
    if (r.location() != null) {
      m.put("location", location(r.location()));
    }
    String body = r.body().trim();
    if (body.startsWith("{") || body.startsWith("[")) {
      m.put("body", xattrsInNameOrder(strip(JSON.readValue(body, Object.class))));
    } else if (!body.isEmpty() && r.status() < 400) {
      m.put("body", body);
    } else if (!body.isEmpty()) {
      m.put("error-page", true); // Jetty's own HTML error page on both sides
    }
    return m;
  }

  /** A datanode URL without its host, port and the namenode's address. */
  private static String location(String url) {
    URI u = URI.create(url);
    List<String> query = new ArrayList<>(Arrays.asList(u.getRawQuery().split("&")));
    query.removeIf(q -> q.startsWith("namenoderpcaddress="));
    return u.getRawPath() + "?" + String.join("&", query);
  }

  @SuppressWarnings("unchecked")
  private static Object strip(Object o) {
    if (o instanceof Map<?, ?> map) {
      Map<String, Object> out = new TreeMap<>();
      for (var e : ((Map<String, Object>) map).entrySet()) {
        if (VARYING.contains(e.getKey())) {
          continue;
        }
        Object v = e.getValue();
        if (e.getKey().equals("Location") && v instanceof String s) {
          v = location(s);
        }
        out.put(e.getKey(), strip(v));
      }
      return out;
    }
    if (o instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      for (Object x : list) {
        out.add(strip(x));
      }
      return out;
    }
    return o;
  }

  /**
   * Extended attributes in name order: HDFS keeps them in insertion order on the inode, hops in
   * name order, through RPC alike; the order carries no meaning.
   */
  @SuppressWarnings("unchecked")
  private static Object xattrsInNameOrder(Object body) throws IOException {
    if (body instanceof Map<?, ?> m) {
      Map<String, Object> out = new TreeMap<>((Map<String, Object>) m);
      if (out.get("XAttrs") instanceof List<?> list) {
        List<Object> sorted = new ArrayList<>(list);
        sorted.sort(
            java.util.Comparator.comparing(x -> String.valueOf(((Map<?, ?>) x).get("name"))));
        out.put("XAttrs", sorted);
      }
      if (out.get("XAttrNames") instanceof String names) {
        List<String> sorted = new ArrayList<>(JSON.readValue(names, List.class));
        java.util.Collections.sort(sorted);
        out.put("XAttrNames", sorted);
      }
      return out;
    }
    return body;
  }
}
