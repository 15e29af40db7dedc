package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.FSLimitException.PathComponentTooLongException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input sent straight over the wire (the stock client would normalize some of it first) gets
 * the exception HDFS gives, and the namenode stays healthy afterwards.
 */
class BadInputTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static ClientProtocol nn;

  @BeforeAll
  static void start() throws Exception {
    cluster = new HopsTestCluster();
    fs = cluster.client();
    nn = fs.getClient().getNamenode();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  @AfterEach
  void namenodeStillServes() throws Exception {
    String p = "/healthy-" + System.nanoTime();
    assertThat(fs.mkdirs(new Path(p))).isTrue();
    assertThat(fs.getFileStatus(new Path(p)).isDirectory()).isTrue();
  }

  private static Class<?> remoteClass(Exception e) throws ClassNotFoundException {
    return e instanceof RemoteException r ? Class.forName(r.getClassName()) : e.getClass();
  }

  @ParameterizedTest
  @ValueSource(strings = {"relative/path", "/a/../b", "/a/./b", "/a//b", "/a:b"})
  void malformedPathsAreInvalidPathExceptionsToCreate(String path) {
    assertThatThrownBy(() -> nn.mkdirs(path, FsPermission.getDirDefault(), true))
        .satisfies(
            e -> assertThat(remoteClass((Exception) e)).isEqualTo(InvalidPathException.class));
  }

  @ParameterizedTest
  @ValueSource(strings = {"relative/path", ""})
  void relativePathsAreInvalidPathExceptionsToRead(String path) {
    assertThatThrownBy(() -> nn.getFileInfo(path))
        .satisfies(
            e -> assertThat(remoteClass((Exception) e)).isEqualTo(InvalidPathException.class));
  }

  /**
   * HDFS resolves a path it reads literally, empty components skipped (only a path to create must
   * be a valid name): no inode is named {@code .}, {@code ..} or with a colon.
   */
  @ParameterizedTest
  @ValueSource(strings = {"/a/../b", "/a/./b", "/a:b", "/..", "/bad-input/../bad-input"})
  void malformedPathsToReadNameNothing(String path) throws Exception {
    fs.mkdirs(new Path("/bad-input"));
    assertThat(nn.getFileInfo(path)).isNull();
  }

  @org.junit.jupiter.api.Test
  void emptyComponentsOfAPathToReadAreSkipped() throws Exception {
    fs.mkdirs(new Path("/skip/me"));
    assertThat(nn.getFileInfo("//skip//me/").isDirectory()).isTrue();
  }

  @Test
  void aNameOverTheComponentLimitIsRefused() {
    // The stock client does not unwrap this one (nor does it against HDFS): it arrives as a
    // RemoteException naming the class.
    String longName = "x".repeat(256);
    assertThatThrownBy(() -> fs.mkdirs(new Path("/" + longName)))
        .satisfies(
            e ->
                assertThat(remoteClass((Exception) e))
                    .isEqualTo(PathComponentTooLongException.class));
    // 86 three-byte characters are 258 bytes: the limit counts bytes, as HDFS does.
    assertThatThrownBy(() -> fs.mkdirs(new Path("/" + "€".repeat(86))))
        .satisfies(
            e ->
                assertThat(remoteClass((Exception) e))
                    .isEqualTo(PathComponentTooLongException.class));
  }

  @Test
  void aPathOverTheLengthLimitIsRefused() {
    StringBuilder p = new StringBuilder();
    while (p.length() <= 8000) {
      p.append("/abcdefghij");
    }
    assertThatThrownBy(() -> fs.mkdirs(new Path(p.toString())))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Pathname too long");
  }

  @Test
  void stickyAndFullPermissionBitsAreKeptExactly() throws Exception {
    Path p = new Path("/perm-" + System.nanoTime());
    fs.mkdirs(p);
    fs.setPermission(p, new FsPermission((short) 01777));
    assertThat(fs.getFileStatus(p).getPermission().toShort()).isEqualTo((short) 01777);
  }

  @Test
  void anUnknownUserNameBecomesTheOwnerAsInHdfs() throws Exception {
    Path p = new Path("/owned-" + System.nanoTime());
    fs.mkdirs(p);
    fs.setOwner(p, "no-such-user-anywhere", "no-such-group");
    assertThat(fs.getFileStatus(p).getOwner()).isEqualTo("no-such-user-anywhere");
    assertThat(fs.getFileStatus(p).getGroup()).isEqualTo("no-such-group");
  }
}
