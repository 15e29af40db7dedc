package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.ThreadConsole;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The order of an inode's extended attributes against hops and Apache HDFS (a MiniDFSCluster): HDFS
 * keeps the latest set (new or replaced) first, the others in their order, and values over 1 KB
 * after the rest. The stock client's {@code listXAttrs}, {@code getXAttrs} and {@code hadoop fs
 * -getfattr -d} go through a HashMap built in that order, so it shows for names in the same hash
 * bucket ({@code user.a}/{@code user.q} and {@code user.b}/{@code user.r} are): the later set comes
 * first.
 */
class XAttrOrderLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("xattr-order"));

  @Test
  void attributesComeInHdfsOrderAfterSetReplaceAndRemove() throws Exception {
    List<String> hops = script(both.hopsSide().admin(), both.hops().clientConf());
    List<String> hdfs = script(both.hdfsSide().admin(), ApacheHdfs.clientConf(both.hdfs(), 1));
    assertThat(hops.get(0))
        .isEqualTo("list: [user.m, user.b, user.r, user.q, user.a, user.s, trusted.t]");
    assertThat(hops).isEqualTo(hdfs);
  }

  private static List<String> script(DistributedFileSystem fs, Configuration conf)
      throws Exception {
    Path f = new Path("/order/f");
    fs.mkdirs(f.getParent());
    fs.create(f).close();
    set(fs, f, "user.a", "1");
    set(fs, f, "user.q", "2");
    fs.setXAttr(f, "user.m", new byte[2000]);
    set(fs, f, "user.b", "3");
    set(fs, f, "user.r", "4");
    set(fs, f, "user.c", "5");
    set(fs, f, "user.s", "6");
    set(fs, f, "trusted.t", "7");
    fs.setXAttr(
        f, "user.b", "33".getBytes(StandardCharsets.UTF_8), EnumSet.of(XAttrSetFlag.REPLACE));
    fs.removeXAttr(f, "user.c");
    List<String> out = new ArrayList<>();
    out.add("list: " + fs.listXAttrs(f));
    out.add("get: " + new ArrayList<>(fs.getXAttrs(f).keySet()));
    out.add("get some: " + new ArrayList<>(fs.getXAttrs(f, List.of("user.a", "user.q")).keySet()));
    Path d = new Path("/order/d");
    fs.mkdirs(d);
    set(fs, d, "user.r", "1");
    set(fs, d, "user.b", "2");
    set(fs, d, "user.r", "3");
    out.add("dir: " + fs.listXAttrs(d));
    out.add(getfattr(conf, "-d", f.toString()));
    out.add(getfattr(conf, "-d", d.toString()));
    return out;
  }

  private static void set(DistributedFileSystem fs, Path p, String name, String value)
      throws Exception {
    fs.setXAttr(p, name, value.getBytes(StandardCharsets.UTF_8));
  }

  private static synchronized String getfattr(Configuration conf, String... args) throws Exception {
    String[] argv = new String[args.length + 1];
    argv[0] = "-getfattr";
    System.arraycopy(args, 0, argv, 1, args.length);
    ThreadConsole.Captured c =
        ThreadConsole.capture(
            () -> {
              FsShell shell = new FsShell(new Configuration(conf));
              try {
                return ToolRunner.run(shell, argv);
              } finally {
                shell.close();
              }
            });
    return "exit " + c.exit() + "\n" + c.out() + c.err();
  }
}
