package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.namenode.ObservedCluster;
import io.hops.namenode.resolve.Inodes;
import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** getListing through the stock client: order, paging, files, missing paths, permissions, cost. */
class ListingTest {
  private static final int LS_LIMIT = 5;

  private static Configuration limited() {
    Configuration conf = new Configuration(false);
    conf.setInt(DFSConfigKeys.DFS_LIST_LIMIT, LS_LIMIT);
    return conf;
  }

  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of(limited());

  private static List<String> names(FileStatus[] listing) {
    List<String> out = new ArrayList<>();
    for (FileStatus s : listing) {
      out.add(s.getPath().getName());
    }
    return out;
  }

  private static List<String> names(DirectoryListing listing) {
    List<String> out = new ArrayList<>();
    for (HdfsFileStatus s : listing.getPartialListing()) {
      out.add(s.getLocalName());
    }
    return out;
  }

  @Test
  void rootListsTopLevelDirectoriesSpreadOverPartitions() throws Exception {
    List<String> expected = new ArrayList<>();
    Set<Long> partitions = new HashSet<>();
    for (int i = 0; i < 30; i++) {
      String name = String.format("top%02d", i);
      assertThat(observed.fs().mkdirs(new Path("/" + name))).isTrue();
      expected.add(name);
      partitions.add(Inodes.partitionOf(Inodes.ROOT_ID, name));
    }
    assertThat(partitions).as("top-level directories are hash-partitioned").hasSizeGreaterThan(10);

    // Past dfs.ls.limit (5): the stock client pages through the listing itself.
    List<String> listed = names(observed.fs().listStatus(new Path("/")));
    assertThat(listed).containsAll(expected);
    assertThat(listed).isSortedAccordingTo(String::compareTo);
    assertThat(observed.fs().listStatus(new Path("/top07"))).isEmpty();
  }

  @Test
  void getListingPagesByLsLimitAndTheClientSeesEverything() throws Exception {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String name = "d" + (char) ('a' + i);
      observed.fs().mkdirs(new Path("/paged/" + name));
      expected.add(name);
    }
    assertThat(names(observed.fs().listStatus(new Path("/paged")))).isEqualTo(expected);

    var nn = observed.fs().getClient().getNamenode();
    DirectoryListing first = nn.getListing("/paged", HdfsFileStatus.EMPTY_NAME, false);
    assertThat(names(first)).isEqualTo(expected.subList(0, 5));
    assertThat(first.getRemainingEntries()).isEqualTo(7);
    assertThat(first.hasMore()).isTrue();
    DirectoryListing second = nn.getListing("/paged", first.getLastName(), false);
    assertThat(names(second)).isEqualTo(expected.subList(5, 10));
    // A later page knows only that more follow (GetListing#remaining): the stock client asks no
    // more of it.
    assertThat(second.getRemainingEntries()).isPositive();
    assertThat(second.hasMore()).isTrue();
    DirectoryListing last = nn.getListing("/paged", second.getLastName(), false);
    assertThat(names(last)).isEqualTo(expected.subList(10, 12));
    assertThat(last.getRemainingEntries()).isZero();
    assertThat(last.hasMore()).isFalse();

    // startAfter need not exist: entries strictly after it, as HDFS.
    DirectoryListing between = nn.getListing("/paged", bytes("dc0"), false);
    assertThat(names(between).get(0)).isEqualTo("dd");
    assertThat(nn.getListing("/paged", bytes("zzz"), false).getPartialListing()).isEmpty();
  }

  @Test
  void childrenAreOrderedBySignedNameBytesLikeHdfs() throws Exception {
    for (String n : List.of("a", "B", "_", "é", "Z", "aa", "1")) {
      observed.fs().mkdirs(new Path("/order/" + n));
    }
    // HDFS compares names as signed bytes: upper case before lower case, and multi-byte UTF-8
    // (negative bytes) before everything ASCII.
    assertThat(names(observed.fs().listStatus(new Path("/order"))))
        .containsExactly("é", "1", "B", "Z", "_", "a", "aa");
  }

  @Test
  void listingAFileGivesTheFileItself() throws Exception {
    Path file = new Path("/lsfile/f");
    assertThat(observed.fs().createNewFile(file)).isTrue();
    FileStatus[] listing = observed.fs().listStatus(file);
    assertThat(listing).hasSize(1);
    assertThat(listing[0].isFile()).isTrue();
    assertThat(listing[0].getPath().toUri().getPath()).isEqualTo("/lsfile/f");

    DirectoryListing raw =
        observed
            .fs()
            .getClient()
            .getNamenode()
            .getListing("/lsfile/f", HdfsFileStatus.EMPTY_NAME, false);
    assertThat(raw.getPartialListing()).hasSize(1);
    assertThat(raw.getPartialListing()[0].getLocalName()).isEmpty();
  }

  @Test
  void locatedListingOfZeroLengthFilesWorksWithTheStockClient() throws Exception {
    observed.fs().mkdirs(new Path("/located/sub"));
    observed.fs().createNewFile(new Path("/located/a"));
    observed.fs().createNewFile(new Path("/located/sub/b"));
    List<String> files = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = observed.fs().listFiles(new Path("/located"), true);
    while (it.hasNext()) {
      LocatedFileStatus s = it.next();
      assertThat(s.getBlockLocations()).isEmpty();
      files.add(s.getPath().toUri().getPath());
    }
    assertThat(files).containsExactlyInAnyOrder("/located/a", "/located/sub/b");
  }

  @Test
  void listingAMissingPathIsFileNotFound() {
    assertThatThrownBy(() -> observed.fs().listStatus(new Path("/no/such/dir")))
        .isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void listingNeedsReadAndExecuteOnTheDirectory() throws Exception {
    observed.fs().mkdirs(new Path("/private/inner"));
    observed.fs().setPermission(new Path("/private"), new FsPermission((short) 0711));
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    DistributedFileSystem aliceFs =
        alice.doAs(
            (PrivilegedExceptionAction<DistributedFileSystem>)
                () ->
                    (DistributedFileSystem)
                        FileSystem.get(observed.cluster().uri(), observed.cluster().clientConf()));
    try {
      // Traversal (x) is enough for what lies below, not for listing the directory itself.
      assertThat(aliceFs.listStatus(new Path("/private/inner"))).isEmpty();
      assertThatThrownBy(() -> aliceFs.listStatus(new Path("/private")))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("access=READ_EXECUTE")
          .hasMessageContaining("inode=\"/private\"");
    } finally {
      aliceFs.close();
    }
  }

  @Test
  void lsOfADirectoryIsOneBatchOneSharedReadAndOnePrunedScan() throws Exception {
    observed.fs().mkdirs(new Path("/cost/dir/x"));
    observed.fs().mkdirs(new Path("/cost/dir/y"));
    observed.fs().getFileStatus(new Path("/cost/dir")); // warms the hints
    observed.fs().listStatus(new Path("/cost/dir"));
    AccessCounts ls = observed.last("getListing");
    assertThat(ls.get(AccessKind.BATCH, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(ls.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(1);
    assertThat(ls.get(AccessKind.PPIS, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(ls.total()).as(ls.toString()).isEqualTo(3);
  }

  @Test
  void lsOfTheRootIsASharedReadAndOneIndexScan() throws Exception {
    observed.fs().mkdirs(new Path("/rootcost"));
    observed.fs().getClient().getNamenode().getListing("/", HdfsFileStatus.EMPTY_NAME, false);
    AccessCounts ls = observed.last("getListing");
    assertThat(ls.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(1);
    assertThat(ls.get(AccessKind.IS, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(ls.total()).as(ls.toString()).isEqualTo(2);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
