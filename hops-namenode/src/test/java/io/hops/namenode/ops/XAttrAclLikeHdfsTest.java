package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySide.Step;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Extended attributes, ACLs and {@code checkAccess}, by the superuser and by alice (group staff),
 * bob (group other) and carol (group eng), against hops and against Apache HDFS (a MiniDFSCluster
 * without datanodes) in the same run, call by call in order: the outcome (the result, or the
 * exception's class and first message line) must be the same.
 */
class XAttrAclLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("xattracl"))
          .eachSide(XAttrAclLikeHdfsTest::setUp);

  @FunctionalInterface
  private interface Action {
    void run(Side s) throws Exception;
  }

  private static void setUp(Side s) throws Exception {
    s.admin().mkdirs(p("/x/dir"));
    s.admin().setPermission(p("/x"), perm(0755));
    s.admin().createNewFile(p("/x/file"));
    s.admin().setPermission(p("/x/file"), perm(0644));
    s.admin().createNewFile(p("/x/many"));
    s.admin().mkdirs(p("/x/sticky"));
    s.admin().setPermission(p("/x/sticky"), perm(01777));
    s.admin().mkdirs(p("/x/private"));
    s.admin().setPermission(p("/x/private"), perm(0700));
    s.admin().createNewFile(p("/x/private/f"));
    s.admin().mkdirs(p("/x/alice"));
    s.admin().setOwner(p("/x/alice"), "alice", "staff");
    s.alice().createNewFile(p("/x/alice/f"));
    s.admin().createNewFile(p("/x/acl"));
    s.admin().setPermission(p("/x/acl"), perm(0640));
    s.admin().createNewFile(p("/x/masked"));
    s.admin().mkdirs(p("/x/dacl"));
    s.admin().setPermission(p("/x/dacl"), perm(0755));
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static FsPermission perm(int mode) {
    return new FsPermission((short) mode);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<AclEntry> acl(String spec) {
    return AclEntry.parseAclSpec(spec, true);
  }

  private static List<AclEntry> names(String spec) {
    return AclEntry.parseAclSpec(spec, false);
  }

  /** Attributes as sorted name=value text (the client hands back a HashMap). */
  private static String xattrs(Map<String, byte[]> m) {
    Map<String, String> sorted = new TreeMap<>();
    m.forEach((k, v) -> sorted.put(k, new String(v, StandardCharsets.UTF_8)));
    return sorted.toString();
  }

  private static String aclStatus(FileSystem fs, String path) throws Exception {
    AclStatus st = fs.getAclStatus(p(path));
    FileStatus f = fs.getFileStatus(p(path));
    return st + " perm=" + st.getPermission() + " ls=" + f.getPermission() + " acl=" + f.hasAcl();
  }

  /** Whether {@code fs}'s user may: "ok" or the refusal's class and first line. */
  private static String access(FileSystem fs, String path, FsAction mode) {
    try {
      fs.access(p(path), mode);
      return "ok";
    } catch (Exception e) {
      return e.getClass().getSimpleName() + ": " + firstLine(e);
    }
  }

  private static Arguments call(String name, Step call) {
    return Arguments.of(name, call);
  }

  private static Arguments step(String name, Action step) {
    Step call =
        s -> {
          step.run(s);
          return "done";
        };
    return Arguments.of(name, call);
  }

  private static final java.util.EnumSet<XAttrSetFlag> CREATE =
      java.util.EnumSet.of(XAttrSetFlag.CREATE);
  private static final java.util.EnumSet<XAttrSetFlag> REPLACE =
      java.util.EnumSet.of(XAttrSetFlag.REPLACE);

  static Stream<Arguments> calls() {
    return Stream.of(
        // ---- extended attributes ----
        call(
            "setXAttr CREATE then getXAttrs",
            s -> {
              s.admin().setXAttr(p("/x/file"), "user.a", b("1"), CREATE);
              return xattrs(s.admin().getXAttrs(p("/x/file")));
            }),
        step(
            "setXAttr CREATE of an existing name",
            s -> s.admin().setXAttr(p("/x/file"), "user.a", b("2"), CREATE)),
        step(
            "setXAttr REPLACE of a missing name",
            s -> s.admin().setXAttr(p("/x/file"), "user.b", b("2"), REPLACE)),
        call(
            "setXAttr REPLACE of an existing name",
            s -> {
              s.admin().setXAttr(p("/x/file"), "user.a", b("replaced"), REPLACE);
              return new String(s.admin().getXAttr(p("/x/file"), "user.a"), StandardCharsets.UTF_8);
            }),
        call(
            "setXAttr with both flags and an empty value",
            s -> {
              s.admin()
                  .setXAttr(
                      p("/x/file"),
                      "user.empty",
                      new byte[0],
                      java.util.EnumSet.allOf(XAttrSetFlag.class));
              return xattrs(s.admin().getXAttrs(p("/x/file")));
            }),
        call(
            "trusted attribute by the superuser",
            s -> {
              s.admin().setXAttr(p("/x/file"), "trusted.t", b("secret"));
              return xattrs(s.admin().getXAttrs(p("/x/file")));
            }),
        call(
            "trusted attributes are hidden from others",
            s -> xattrs(s.alice().getXAttrs(p("/x/file")))),
        call(
            "listXAttrs by the superuser and by alice",
            s ->
                new TreeSet<>(s.admin().listXAttrs(p("/x/file")))
                    + " "
                    + new TreeSet<>(s.alice().listXAttrs(p("/x/file")))),
        step(
            "trusted attribute by a user",
            s -> s.alice().setXAttr(p("/x/alice/f"), "trusted.t", b("x"))),
        step("system attribute", s -> s.admin().setXAttr(p("/x/file"), "system.s", b("x"))),
        step("security attribute", s -> s.admin().setXAttr(p("/x/file"), "security.s", b("x"))),
        step("raw attribute", s -> s.admin().setXAttr(p("/x/file"), "raw.r", b("x"))),
        step(
            "unreadable-by-superuser with a value",
            s -> s.admin().setXAttr(p("/x/file"), "security.hdfs.unreadable.by.superuser", b("x"))),
        step(
            "unreadable-by-superuser on a directory",
            s -> s.admin().setXAttr(p("/x/dir"), "security.hdfs.unreadable.by.superuser", null)),
        step("name without a namespace", s -> s.admin().setXAttr(p("/x/file"), "noprefix", b("x"))),
        step(
            "name with an unknown namespace",
            s -> s.admin().setXAttr(p("/x/file"), "foo.bar", b("x"))),
        step(
            "over the size limit",
            s -> s.admin().setXAttr(p("/x/file"), "user.big", new byte[16384])),
        call(
            "at the size limit",
            s -> {
              s.admin().setXAttr(p("/x/dir"), "user.fit", new byte[16384 - 3]);
              return s.admin().getXAttr(p("/x/dir"), "user.fit").length;
            }),
        step(
            "over the count limit",
            s -> {
              for (int i = 0; i < 33; i++) {
                s.admin().setXAttr(p("/x/many"), "user.n" + i, b("v" + i));
              }
            }),
        call("the count limit keeps what fit", s -> s.admin().listXAttrs(p("/x/many")).size()),
        call(
            "trusted attributes count towards the limit",
            s -> {
              try {
                s.admin().setXAttr(p("/x/many"), "trusted.more", b("x"));
                return "set";
              } catch (Exception e) {
                return firstLine(e);
              }
            }),
        step(
            "setXAttr without write permission",
            s -> s.alice().setXAttr(p("/x/file"), "user.c", b("x"))),
        step(
            "setXAttr in a sticky directory by a non-owner",
            s -> s.alice().setXAttr(p("/x/sticky"), "user.c", b("x"))),
        call(
            "setXAttr by the owner of a file",
            s -> {
              s.alice().setXAttr(p("/x/alice/f"), "user.mine", b("yes"));
              return xattrs(s.alice().getXAttrs(p("/x/alice/f")));
            }),
        step("setXAttr of a missing path", s -> s.admin().setXAttr(p("/x/none"), "user.a", b("x"))),
        step("setXAttr below a file", s -> s.admin().setXAttr(p("/x/file/sub"), "user.a", b("x"))),
        step("getXAttrs of a missing path", s -> s.admin().getXAttrs(p("/x/none"))),
        step("getXAttr of a missing name", s -> s.admin().getXAttr(p("/x/file"), "user.nothere")),
        step(
            "getXAttr of a trusted name by a user",
            s -> s.alice().getXAttr(p("/x/file"), "trusted.t")),
        step(
            "getXAttrs of some names, one missing",
            s -> s.admin().getXAttrs(p("/x/file"), List.of("user.a", "user.nothere"))),
        call(
            "getXAttrs of some names",
            s -> xattrs(s.admin().getXAttrs(p("/x/file"), List.of("user.a", "trusted.t")))),
        step("getXAttrs without read permission", s -> s.alice().getXAttrs(p("/x/private/f"))),
        step(
            "listXAttrs through a directory without traverse",
            s -> s.alice().listXAttrs(p("/x/private/f"))),
        call(
            "removeXAttr",
            s -> {
              s.admin().removeXAttr(p("/x/file"), "user.a");
              return xattrs(s.admin().getXAttrs(p("/x/file")));
            }),
        step("removeXAttr of a missing name", s -> s.admin().removeXAttr(p("/x/file"), "user.a")),
        step("removeXAttr of a missing path", s -> s.admin().removeXAttr(p("/x/none"), "user.a")),
        step(
            "removeXAttr without write permission",
            s -> s.alice().removeXAttr(p("/x/file"), "user.empty")),
        step("removeXAttr of a system name", s -> s.admin().removeXAttr(p("/x/file"), "system.s")),
        call(
            "rename keeps attributes",
            s -> {
              s.admin().rename(p("/x/alice/f"), p("/x/alice/g"));
              return xattrs(s.admin().getXAttrs(p("/x/alice/g")));
            }),
        call(
            "a file recreated after delete has no attributes",
            s -> {
              s.admin().delete(p("/x/file"), false);
              s.admin().createNewFile(p("/x/file"));
              return xattrs(s.admin().getXAttrs(p("/x/file")));
            }),
        // ---- ACLs ----
        call("getAclStatus without an ACL", s -> aclStatus(s.admin(), "/x/acl")),
        call(
            "setAcl with a named user",
            s -> {
              s.admin().setAcl(p("/x/acl"), acl("user::rw-,user:alice:r--,group::---,other::---"));
              return aclStatus(s.admin(), "/x/acl");
            }),
        call("named user may read", s -> access(s.alice(), "/x/acl", FsAction.READ)),
        call("named user may not write", s -> access(s.alice(), "/x/acl", FsAction.WRITE)),
        call("others may not read", s -> access(bob(s), "/x/acl", FsAction.READ)),
        call(
            "named user opens the file",
            s -> {
              s.alice().open(p("/x/acl")).close();
              return "opened";
            }),
        step("other user opens the file", s -> bob(s).open(p("/x/acl")).close()),
        call(
            "modifyAclEntries adds a named group",
            s -> {
              s.admin().modifyAclEntries(p("/x/acl"), acl("group:eng:rw-"));
              return aclStatus(s.admin(), "/x/acl");
            }),
        call("named group may write", s -> access(carol(s), "/x/acl", FsAction.WRITE)),
        call(
            "the mask limits named entries",
            s -> {
              s.admin().modifyAclEntries(p("/x/acl"), acl("mask::r--"));
              return aclStatus(s.admin(), "/x/acl")
                  + " "
                  + access(carol(s), "/x/acl", FsAction.WRITE);
            }),
        call(
            "chmod sets the mask",
            s -> {
              s.admin().setPermission(p("/x/acl"), perm(0600));
              return aclStatus(s.admin(), "/x/acl")
                  + " "
                  + access(s.alice(), "/x/acl", FsAction.READ);
            }),
        call("the superuser passes any ACL", s -> access(s.admin(), "/x/acl", FsAction.ALL)),
        call(
            "the listing shows the ACL bit",
            s -> {
              List<String> out = new ArrayList<>();
              for (FileStatus st : s.admin().listStatus(p("/x"))) {
                out.add(st.getPath().getName() + " " + st.getPermission() + " " + st.hasAcl());
              }
              return out;
            }),
        call(
            "removeAclEntries",
            s -> {
              s.admin().removeAclEntries(p("/x/acl"), names("user:alice"));
              return aclStatus(s.admin(), "/x/acl");
            }),
        call(
            "removeAcl restores the group bits",
            s -> {
              s.admin().removeAcl(p("/x/acl"));
              return aclStatus(s.admin(), "/x/acl");
            }),
        call(
            "removeAcl without an ACL",
            s -> {
              s.admin().removeAcl(p("/x/acl"));
              return aclStatus(s.admin(), "/x/acl");
            }),
        step(
            "setAcl with duplicate entries",
            s ->
                s.admin()
                    .setAcl(
                        p("/x/acl"),
                        acl("user::rw-,user:alice:r--,user:alice:rw-,group::---,other::---"))),
        step(
            "setAcl without the required entries",
            s -> s.admin().setAcl(p("/x/acl"), acl("user:alice:r--"))),
        step(
            "setAcl with a named mask",
            s ->
                s.admin().setAcl(p("/x/acl"), acl("user::rw-,group::---,mask:bad:r--,other::---"))),
        step(
            "removing the mask that named entries need",
            s -> {
              s.admin()
                  .setAcl(p("/x/masked"), acl("user::rw-,user:alice:r--,group::r--,other::---"));
              s.admin().removeAclEntries(p("/x/masked"), names("mask::"));
            }),
        step(
            "a default ACL on a file",
            s -> s.admin().modifyAclEntries(p("/x/masked"), acl("default:user:alice:r--"))),
        step(
            "setAcl by a non-owner",
            s -> s.alice().setAcl(p("/x/acl"), acl("user::rwx,group::---,other::---"))),
        step(
            "modifyAclEntries of a missing path",
            s -> s.admin().modifyAclEntries(p("/x/none"), acl("user:alice:r--"))),
        step("getAclStatus of a missing path", s -> s.admin().getAclStatus(p("/x/none"))),
        step(
            "getAclStatus through a directory without traverse",
            s -> s.alice().getAclStatus(p("/x/private/f"))),
        call(
            "over 32 entries",
            s -> {
              StringBuilder spec = new StringBuilder("user::rw-,group::---,other::---");
              for (int i = 0; i < 32; i++) {
                spec.append(",user:u").append(i).append(":r--");
              }
              try {
                s.admin().setAcl(p("/x/masked"), acl(spec.toString()));
                return "set";
              } catch (Exception e) {
                return e.getClass().getName() + ": " + firstLine(e);
              }
            }),
        // ---- default ACLs ----
        call(
            "setAcl with a default ACL on a directory",
            s -> {
              s.admin()
                  .setAcl(
                      p("/x/dacl"),
                      acl(
                          "user::rwx,group::r-x,other::r-x,default:user::rwx,default:user:alice:rwx,"
                              + "default:group::r-x,default:mask::rwx,default:other::---"));
              return aclStatus(s.admin(), "/x/dacl");
            }),
        call(
            "mkdirs inherits the default ACL",
            s -> {
              s.admin().mkdirs(p("/x/dacl/sub"));
              return aclStatus(s.admin(), "/x/dacl/sub");
            }),
        call(
            "mkdirs -p: every new directory inherits",
            s -> {
              s.admin().mkdirs(p("/x/dacl/p/q"));
              return aclStatus(s.admin(), "/x/dacl/p")
                  + " | "
                  + aclStatus(s.admin(), "/x/dacl/p/q");
            }),
        call(
            "mkdirs with a mode inherits filtered by it",
            s -> {
              s.admin().mkdirs(p("/x/dacl/m"), perm(0750));
              return aclStatus(s.admin(), "/x/dacl/m");
            }),
        call(
            "create inherits the default ACL",
            s -> {
              s.admin().create(p("/x/dacl/f")).close();
              return aclStatus(s.admin(), "/x/dacl/f");
            }),
        call(
            "create with parents inherits",
            s -> {
              s.admin().create(p("/x/dacl/np/f")).close();
              return aclStatus(s.admin(), "/x/dacl/np")
                  + " | "
                  + aclStatus(s.admin(), "/x/dacl/np/f");
            }),
        call(
            "the named user of the default ACL writes into the new directory",
            s -> {
              s.alice().create(p("/x/dacl/sub/by-alice")).close();
              return aclStatus(s.admin(), "/x/dacl/sub/by-alice");
            }),
        step("others may not", s -> bob(s).create(p("/x/dacl/sub/by-bob")).close()),
        call(
            "removeDefaultAcl",
            s -> {
              s.admin().removeDefaultAcl(p("/x/dacl"));
              s.admin().mkdirs(p("/x/dacl/after"));
              return aclStatus(s.admin(), "/x/dacl")
                  + " | "
                  + aclStatus(s.admin(), "/x/dacl/after");
            }),
        call(
            "a default-only ACL",
            s -> {
              s.admin()
                  .setAcl(p("/x/dir"), acl("user::rwx,group::r-x,other::r-x,default:user:bob:r-x"));
              return aclStatus(s.admin(), "/x/dir");
            }),
        call(
            "a minimal default ACL filters by the umask",
            s -> {
              s.admin().mkdirs(p("/x/mindef"));
              s.admin()
                  .setAcl(
                      p("/x/mindef"),
                      acl(
                          "user::rwx,group::rwx,other::rwx,default:user::rwx,default:group::rwx,default:other::rwx"));
              s.admin().mkdirs(p("/x/mindef/c"), perm(0750));
              s.admin().create(p("/x/mindef/f")).close();
              return aclStatus(s.admin(), "/x/mindef/c")
                  + " | "
                  + aclStatus(s.admin(), "/x/mindef/f");
            }),
        call(
            "delete of a tree with ACLs and attributes, then the same names again",
            s -> {
              s.admin().setXAttr(p("/x/dacl/sub"), "user.k", b("v"));
              s.admin().delete(p("/x/dacl"), true);
              s.admin().mkdirs(p("/x/dacl/sub"));
              return aclStatus(s.admin(), "/x/dacl/sub")
                  + " "
                  + xattrs(s.admin().getXAttrs(p("/x/dacl/sub")));
            }),
        // ---- checkAccess ----
        call("checkAccess of a missing path", s -> access(s.admin(), "/x/none", FsAction.READ)),
        call("checkAccess below a file", s -> access(s.admin(), "/x/file/a", FsAction.READ)),
        call("checkAccess without traverse", s -> access(s.alice(), "/x/private/f", FsAction.READ)),
        call("checkAccess by mode bits, allowed", s -> access(s.alice(), "/x/file", FsAction.READ)),
        call("checkAccess by mode bits, denied", s -> access(s.alice(), "/x/file", FsAction.WRITE)),
        call("checkAccess of NONE", s -> access(bob(s), "/x/private", FsAction.NONE)),
        call("checkAccess by the owner", s -> access(s.alice(), "/x/alice", FsAction.ALL)),
        // ---- ACLs in the sub-access checks of a recursive delete and a content summary ----
        call(
            "content summary allowed by named-user entries below",
            s -> {
              for (String d : List.of("/x/tree/t/a/b", "/x/tree/t/c")) {
                s.admin().mkdirs(p(d));
                s.admin().create(p(d + "/f")).close();
              }
              for (String d :
                  List.of("/x/tree", "/x/tree/t", "/x/tree/t/a", "/x/tree/t/a/b", "/x/tree/t/c")) {
                s.admin().setPermission(p(d), perm(0700));
                s.admin().modifyAclEntries(p(d), acl("user:alice:rwx"));
              }
              return s.alice().getContentSummary(p("/x/tree/t")).toString(false);
            }),
        step(
            "recursive delete refused where a directory below lacks the entry",
            s -> {
              s.admin().removeAclEntries(p("/x/tree/t/a/b"), names("user:alice"));
              s.alice().delete(p("/x/tree/t"), true);
            }),
        step("content summary refused likewise", s -> s.alice().getContentSummary(p("/x/tree/t"))),
        call(
            "recursive delete allowed by named-user entries",
            s -> {
              s.admin().modifyAclEntries(p("/x/tree/t/a/b"), acl("user:alice:rwx"));
              return s.alice().delete(p("/x/tree/t"), true)
                  + " "
                  + s.admin().exists(p("/x/tree/t"));
            }));
  }

  /** bob's client (group other): neither owner nor in a named entry. */
  private static DistributedFileSystem bob(Side s) throws IOException {
    return s.as("bob", "other");
  }

  /** carol's client (group eng). */
  private static DistributedFileSystem carol(Side s) throws IOException {
    return s.as("carol", "eng");
  }

  private static String firstLine(Throwable e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void outcomeIsTheSameAsApacheHdfs(String name, Step call) {
    String expected = SideBySide.outcome(call, both.hdfsSide());
    String actual = SideBySide.outcome(call, both.hopsSide());
    System.out.printf("%s -> %s%n", name, actual); // for the report: what hops answered
    assertThat(actual).as(name).isEqualTo(expected);
  }
}
