package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySide.Step;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code security.hdfs.unreadable.by.superuser}: a file carrying it cannot be opened by the
 * superuser, only by those its permissions let read; against hops and Apache HDFS in the same run,
 * each step's outcome (result, or exception class and first message line) must be the same.
 */
class UnreadableBySuperuserLikeHdfsTest {
  private static final String MARKER = "security.hdfs.unreadable.by.superuser";

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("unreadable"));

  private static String outcome(Side s, Step step) {
    try {
      return String.valueOf(step.run(s));
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }

  private static int read(FileSystem fs, String path) throws Exception {
    try (FSDataInputStream in = fs.open(new Path(path))) {
      return in.read();
    }
  }

  private static Object mark(FileSystem fs, String path) throws Exception {
    fs.setXAttr(new Path(path), MARKER, null, EnumSet.of(XAttrSetFlag.CREATE));
    return "marked";
  }

  @Test
  void theSuperuserCannotOpenAMarkedFileLikeHdfs() throws Exception {
    List<Step> steps =
        List.<Step>of(
            s -> s.admin().mkdirs(new Path("/u")),
            s -> {
              s.admin().setPermission(new Path("/u"), new FsPermission((short) 0777));
              s.alice().createNewFile(new Path("/u/mine"));
              return s.admin().createNewFile(new Path("/u/admins"));
            },
            s -> read(s.admin(), "/u/mine"),
            s -> mark(s.alice(), "/u/mine"),
            s -> read(s.admin(), "/u/mine"),
            s -> read(s.alice(), "/u/mine"),
            s -> s.admin().getFileStatus(new Path("/u/mine")).getLen(),
            s -> s.admin().getXAttrs(new Path("/u/mine")).keySet(),
            s -> {
              s.admin().removeXAttr(new Path("/u/mine"), MARKER);
              return "removed";
            },
            s -> mark(s.admin(), "/u/admins"),
            s -> read(s.admin(), "/u/admins"),
            s -> read(s.alice(), "/u/admins"),
            s -> mark(s.admin(), "/u"),
            s -> {
              s.admin().rename(new Path("/u/mine"), new Path("/u/moved"));
              return read(s.admin(), "/u/moved");
            });
    List<String> onHops = new ArrayList<>();
    List<String> onHdfs = new ArrayList<>();
    for (Step step : steps) {
      onHdfs.add(outcome(both.hdfsSide(), step));
      onHops.add(outcome(both.hopsSide(), step));
    }
    assertThat(onHops).containsExactlyElementsOf(onHdfs);
    assertThat(onHdfs.get(4))
        .isEqualTo(
            "org.apache.hadoop.security.AccessControlException: Access is denied for "
                + UserGroupInformation.getCurrentUser().getShortUserName()
                + " since the superuser is not allowed to perform this operation.");
  }
}
