package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.web.webhdfs.WebHdfsSides.Side;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hadoop's own {@link WebHdfsFileSystem} ({@code webhdfs://} URIs) against hops and against Apache
 * HDFS, call by call in order, as the superuser and as alice: every WebHDFS operation, files
 * written, appended and read through the real DataNodes the namenodes redirect to. The outcome (the
 * result, or the exception's class and first message line) must be the same.
 */
class WebHdfsFileSystemLikeHdfsTest {
  /** The clients of one side. */
  private record Clients(WebHdfsFileSystem admin, WebHdfsFileSystem alice) {}

  @FunctionalInterface
  private interface Call {
    Object run(Clients c) throws Exception;
  }

  private static WebHdfsSides sides;
  private static Clients hops;
  private static Clients hdfs;

  @BeforeAll
  static void start() throws Exception {
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    sides = new WebHdfsSides("webhdfs-fs");
    hops = clients(sides.hops, alice);
    hdfs = clients(sides.hdfs, alice);
    for (Side s : sides.both()) {
      s.dfs().mkdirs(new Path("/w/private"));
      s.dfs().setPermission(new Path("/w"), new FsPermission((short) 0777));
      s.dfs().setPermission(new Path("/w/private"), new FsPermission((short) 0700));
    }
  }

  private static Clients clients(Side s, UserGroupInformation alice) throws Exception {
    return new Clients(s.web(), alice.doAs((PrivilegedExceptionAction<WebHdfsFileSystem>) s::web));
  }

  @AfterAll
  static void stop() throws IOException {
    for (Clients c : new Clients[] {hops, hdfs}) {
      if (c != null) {
        c.admin.close();
        c.alice.close();
      }
    }
    if (sides != null) {
      sides.close();
    }
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String write(FileSystem fs, String path, String content) throws IOException {
    try (FSDataOutputStream out = fs.create(p(path), true)) {
      out.write(b(content));
    }
    return read(fs, path);
  }

  private static String read(FileSystem fs, String path) throws IOException {
    try (FSDataInputStream in = fs.open(p(path))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** A status without times and ids: what HDFS and hops must agree on. */
  private static String status(FileStatus s) {
    return s.getPath().toUri().getPath()
        + " dir="
        + s.isDirectory()
        + " len="
        + s.getLen()
        + " perm="
        + s.getPermission()
        + " owner="
        + s.getOwner()
        + ":"
        + s.getGroup()
        + " repl="
        + s.getReplication()
        + " bs="
        + s.getBlockSize()
        + " acl="
        + s.hasAcl();
  }

  private static String listing(FileStatus[] entries) {
    List<String> out = new ArrayList<>();
    for (FileStatus s : entries) {
      out.add(status(s));
    }
    return out.toString();
  }

  private static String summary(ContentSummary s) {
    return s.getLength()
        + " files="
        + s.getFileCount()
        + " dirs="
        + s.getDirectoryCount()
        + " quota="
        + s.getQuota()
        + " consumed="
        + s.getSpaceConsumed()
        + " spaceQuota="
        + s.getSpaceQuota();
  }

  private static String quota(QuotaUsage q) {
    return q.getFileAndDirectoryCount()
        + " quota="
        + q.getQuota()
        + " consumed="
        + q.getSpaceConsumed()
        + " spaceQuota="
        + q.getSpaceQuota();
  }

  private static String xattrs(Map<String, byte[]> m) {
    Map<String, String> sorted = new TreeMap<>();
    m.forEach((k, v) -> sorted.put(k, new String(v, StandardCharsets.UTF_8)));
    return sorted.toString();
  }

  private static Arguments call(String name, Call call) {
    return Arguments.of(name, call);
  }

  static Stream<Arguments> calls() {
    return Stream.of(
        call("mkdirs", c -> c.admin.mkdirs(p("/w/d/a/b"), new FsPermission((short) 0750))),
        call("getFileStatus of a directory", c -> status(c.admin.getFileStatus(p("/w/d/a/b")))),
        call(
            "mkdirs onto a file's path",
            c -> {
              write(c.admin, "/w/f0", "x");
              return c.admin.mkdirs(p("/w/f0/sub"));
            }),
        call("create, write and read back", c -> write(c.admin, "/w/f", "hello world\n")),
        call("getFileStatus of the file", c -> status(c.admin.getFileStatus(p("/w/f")))),
        call("create without overwrite", c -> c.admin.create(p("/w/f"), false)),
        call("create under a file", c -> c.admin.create(p("/w/f/child"))),
        call(
            "append and read back",
            c -> {
              try (FSDataOutputStream out = c.admin.append(p("/w/f"))) {
                out.write(b("more\n"));
              }
              return read(c.admin, "/w/f");
            }),
        call("append to a directory", c -> c.admin.append(p("/w/d"))),
        call("append to a missing file", c -> c.admin.append(p("/w/nope"))),
        call(
            "positional read",
            c -> {
              try (FSDataInputStream in = c.admin.open(p("/w/f"))) {
                byte[] buf = new byte[5];
                in.readFully(6, buf);
                return new String(buf, StandardCharsets.UTF_8);
              }
            }),
        call(
            "seek and read",
            c -> {
              try (FSDataInputStream in = c.admin.open(p("/w/f"))) {
                in.seek(12);
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
              }
            }),
        call("open a missing file", c -> read(c.admin, "/w/nope")),
        call("open a directory", c -> read(c.admin, "/w/d")),
        call("read an empty file", c -> write(c.admin, "/w/empty", "")),
        call("listStatus", c -> listing(c.admin.listStatus(p("/w")))),
        call("listStatus of a file", c -> listing(c.admin.listStatus(p("/w/f")))),
        call("listStatus of a missing path", c -> listing(c.admin.listStatus(p("/w/nope")))),
        call(
            "listStatusIterator (LISTSTATUS_BATCH)",
            c -> {
              List<String> names = new ArrayList<>();
              var it = c.admin.listStatusIterator(p("/w"));
              while (it.hasNext()) {
                names.add(it.next().getPath().getName());
              }
              return names;
            }),
        call("getContentSummary", c -> summary(c.admin.getContentSummary(p("/w")))),
        call(
            "getQuotaUsage",
            c -> {
              sides.hops.dfs().setQuota(p("/w/d"), 100, 1L << 30);
              sides.hdfs.dfs().setQuota(p("/w/d"), 100, 1L << 30);
              return quota(c.admin.getQuotaUsage(p("/w/d")));
            }),
        call("getFileChecksum", c -> c.admin.getFileChecksum(p("/w/f")).toString()),
        call("getFileChecksum of a directory", c -> c.admin.getFileChecksum(p("/w/d"))),
        call("getHomeDirectory", c -> c.alice.getHomeDirectory().toUri().getPath()),
        call("getTrashRoot", c -> c.alice.getTrashRoot(p("/w/f")).toUri().getPath()),
        call("rename", c -> c.admin.rename(p("/w/f"), p("/w/g"))),
        call("rename a missing file", c -> c.admin.rename(p("/w/nope"), p("/w/x"))),
        call(
            "rename with overwrite",
            c -> {
              write(c.admin, "/w/h", "h");
              c.admin.rename(p("/w/h"), p("/w/empty"), Options.Rename.OVERWRITE);
              return read(c.admin, "/w/empty");
            }),
        call(
            "rename without overwrite onto a file",
            c -> {
              write(c.admin, "/w/h2", "h2");
              c.admin.rename(p("/w/h2"), p("/w/empty"), Options.Rename.NONE);
              return "done";
            }),
        call(
            "setPermission",
            c -> {
              c.admin.setPermission(p("/w/g"), new FsPermission((short) 0640));
              return status(c.admin.getFileStatus(p("/w/g")));
            }),
        call(
            "setOwner",
            c -> {
              c.admin.setOwner(p("/w/g"), "alice", "staff");
              return status(c.admin.getFileStatus(p("/w/g")));
            }),
        call(
            "setOwner by a user",
            c -> {
              c.alice.setOwner(p("/w/g"), "bob", null);
              return "done";
            }),
        call("setReplication", c -> c.admin.setReplication(p("/w/g"), (short) 2)),
        call("setReplication of a directory", c -> c.admin.setReplication(p("/w/d"), (short) 2)),
        call(
            "setTimes",
            c -> {
              c.admin.setTimes(p("/w/g"), 100000L, 200000L);
              FileStatus s = c.admin.getFileStatus(p("/w/g"));
              return s.getModificationTime() + " " + s.getAccessTime();
            }),
        call(
            "setXAttr and getXAttrs",
            c -> {
              c.admin.setXAttr(p("/w/g"), "user.a", b("1"));
              c.admin.setXAttr(p("/w/g"), "user.b", b("two"), EnumSet.of(XAttrSetFlag.CREATE));
              return xattrs(c.admin.getXAttrs(p("/w/g")));
            }),
        call(
            "getXAttr",
            c -> new String(c.admin.getXAttr(p("/w/g"), "user.b"), StandardCharsets.UTF_8)),
        call("getXAttr of a missing name", c -> c.admin.getXAttr(p("/w/g"), "user.zz")),
        call("getXAttrs by names", c -> xattrs(c.admin.getXAttrs(p("/w/g"), List.of("user.a")))),
        call("listXAttrs", c -> new TreeSet<>(c.admin.listXAttrs(p("/w/g")))),
        call(
            "setXAttr CREATE of an existing name",
            c -> {
              c.admin.setXAttr(p("/w/g"), "user.a", b("3"), EnumSet.of(XAttrSetFlag.CREATE));
              return "done";
            }),
        call(
            "setXAttr without a namespace",
            c -> {
              c.admin.setXAttr(p("/w/g"), "noprefix", b("3"));
              return "done";
            }),
        call(
            "removeXAttr",
            c -> {
              c.admin.removeXAttr(p("/w/g"), "user.a");
              return new TreeSet<>(c.admin.listXAttrs(p("/w/g")));
            }),
        call(
            "removeXAttr of a missing name",
            c -> {
              c.admin.removeXAttr(p("/w/g"), "user.a");
              return "done";
            }),
        call(
            "modifyAclEntries and getAclStatus",
            c -> {
              c.admin.modifyAclEntries(p("/w/g"), AclEntry.parseAclSpec("user:bob:r--", true));
              return c.admin.getAclStatus(p("/w/g"))
                  + " "
                  + status(c.admin.getFileStatus(p("/w/g")));
            }),
        call(
            "setAcl",
            c -> {
              c.admin.setAcl(
                  p("/w/d"),
                  AclEntry.parseAclSpec(
                      "user::rwx,group::r-x,other::---,user:alice:rwx,default:user:alice:r-x",
                      true));
              return c.admin.getAclStatus(p("/w/d")).toString();
            }),
        call(
            "default ACL inherited by a child created over WebHDFS",
            c -> {
              write(c.admin, "/w/d/child", "c");
              return c.admin.getAclStatus(p("/w/d/child")).toString();
            }),
        call(
            "removeAclEntries",
            c -> {
              c.admin.removeAclEntries(p("/w/g"), AclEntry.parseAclSpec("user:bob", false));
              return c.admin.getAclStatus(p("/w/g")).toString();
            }),
        call(
            "removeDefaultAcl",
            c -> {
              c.admin.removeDefaultAcl(p("/w/d"));
              return c.admin.getAclStatus(p("/w/d")).toString();
            }),
        call(
            "removeAcl",
            c -> {
              c.admin.removeAcl(p("/w/d"));
              return c.admin.getAclStatus(p("/w/d")).toString();
            }),
        call(
            "setAcl with a duplicate entry",
            c -> {
              c.admin.setAcl(
                  p("/w/g"),
                  AclEntry.parseAclSpec("user::rwx,user::r--,group::r--,other::---", true));
              return "done";
            }),
        call(
            "access allowed",
            c -> {
              c.admin.access(p("/w/private"), FsAction.ALL);
              return "ok";
            }),
        call(
            "access denied",
            c -> {
              c.alice.access(p("/w/private"), FsAction.READ);
              return "ok";
            }),
        call("listStatus denied", c -> listing(c.alice.listStatus(p("/w/private")))),
        call("create denied", c -> c.alice.create(p("/w/private/x"))),
        call(
            "create by alice, owner and group",
            c ->
                status(
                    c.alice.getFileStatus(
                        p(write(c.alice, "/w/byalice", "a").isEmpty() ? "" : "/w/byalice")))),
        call(
            "getAllStoragePolicies",
            c -> {
              List<String> names = new ArrayList<>();
              for (BlockStoragePolicySpi sp : c.admin.getAllStoragePolicies()) {
                if (!sp.getName().equals("DB")) { // hops' own, for small files in the database
                  names.add(sp.getName());
                }
              }
              return names;
            }),
        call(
            "setStoragePolicy and getStoragePolicy",
            c -> {
              c.admin.setStoragePolicy(p("/w/d"), "COLD");
              return c.admin.getStoragePolicy(p("/w/d/child")).getName();
            }),
        call(
            "setStoragePolicy of an unknown name",
            c -> {
              c.admin.setStoragePolicy(p("/w/d"), "NOPE");
              return "done";
            }),
        call(
            "unsetStoragePolicy",
            c -> {
              c.admin.unsetStoragePolicy(p("/w/d"));
              return c.admin.getStoragePolicy(p("/w/d")).getName();
            }),
        call(
            "truncate to zero",
            c -> {
              write(c.admin, "/w/t", "truncate me");
              return c.admin.truncate(p("/w/t"), 0)
                  + " "
                  + c.admin.getFileStatus(p("/w/t")).getLen();
            }),
        call("truncate beyond the end", c -> c.admin.truncate(p("/w/g"), 1000)),
        call(
            "concat",
            c -> {
              write(c.admin, "/w/c1", "one");
              write(c.admin, "/w/c2", "two");
              c.admin.concat(p("/w/c1"), new Path[] {p("/w/c2")});
              return read(c.admin, "/w/c1") + " " + c.admin.exists(p("/w/c2"));
            }),
        call(
            "concat of a missing source",
            c -> {
              c.admin.concat(p("/w/c1"), new Path[] {p("/w/nope")});
              return "done";
            }),
        call("delete a non-empty directory", c -> c.admin.delete(p("/w/d"), false)),
        call("delete recursively", c -> c.admin.delete(p("/w/d"), true)),
        call("delete a missing path", c -> c.admin.delete(p("/w/d"), true)),
        call("delete denied", c -> c.alice.delete(p("/w/private"), true)),
        call("final listing", c -> listing(c.admin.listStatus(p("/w")))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void sameOutcomeAsHdfs(String name, Call call) {
    String onHops = outcome(call, hops);
    String onHdfs = outcome(call, hdfs);
    assertThat(onHops).as(name).isEqualTo(onHdfs);
  }

  private static String outcome(Call call, Clients c) {
    try {
      Object r = call.run(c);
      if (r instanceof Object[] a) {
        return Arrays.toString(a);
      }
      return String.valueOf(r instanceof FSDataOutputStream out ? closed(out) : r);
    } catch (Exception e) {
      return e.getClass().getName() + ": " + firstLine(e);
    }
  }

  private static String closed(FSDataOutputStream out) throws IOException {
    out.close();
    return "created";
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
