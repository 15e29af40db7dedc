package io.hops.namenode.housekeeping;

import io.hops.namenode.Namesystem;
import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.TrashPolicyDefault;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trash emptier HDFS's namenode runs when {@code fs.trash.interval} (minutes) is positive in
 * its configuration, run by the leader only: every {@code fs.trash.checkpoint.interval} (the
 * deletion interval if unset or larger), on the interval's boundaries, each user's trash gets its
 * checkpoints older than the deletion interval removed and its {@code Current} turned into a new
 * checkpoint. Hadoop's own {@link TrashPolicyDefault} does the work through a client of this
 * namenode, as each trash's owner (simple authentication), so trash semantics are Hadoop's.
 */
final class TrashEmptier implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(TrashEmptier.class);

  private final Configuration conf;
  private final URI self;
  private final long interval;
  private long next = -1;

  private TrashEmptier(Configuration conf, URI self, long interval) {
    this.conf = conf;
    this.self = self;
    this.interval = interval;
  }

  /** The emptier for this configuration, or null when trash is off. */
  static TrashEmptier of(Namesystem ns, URI self) {
    Configuration conf = new Configuration(ns.conf());
    long deletion =
        (long)
            (conf.getFloat(
                    CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_KEY,
                    CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_DEFAULT)
                * 60_000);
    if (deletion <= 0 || self == null) {
      return null;
    }
    long checkpoint =
        (long)
            (conf.getFloat(
                    CommonConfigurationKeysPublic.FS_TRASH_CHECKPOINT_INTERVAL_KEY,
                    CommonConfigurationKeysPublic.FS_TRASH_CHECKPOINT_INTERVAL_DEFAULT)
                * 60_000);
    if (checkpoint <= 0 || checkpoint > deletion) {
      checkpoint = deletion;
    }
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    LOG.info(
        "trash emptier: deletion interval {} ms, checkpoint interval {} ms", deletion, checkpoint);
    return new TrashEmptier(conf, self, checkpoint);
  }

  @Override
  public String name() {
    return "trash emptier";
  }

  @Override
  public void runOnce() throws IOException {
    long now = System.currentTimeMillis();
    if (next < 0) {
      next = (now / interval + 1) * interval;
    }
    if (now < next) {
      return;
    }
    next = (now / interval + 1) * interval;
    Set<String> owners = new LinkedHashSet<>();
    try (FileSystem fs = FileSystem.newInstance(self, conf)) {
      for (FileStatus root : fs.getTrashRoots(true)) {
        if (root.isDirectory()) {
          owners.add(root.getOwner());
        }
      }
    }
    for (String owner : owners) {
      try {
        UserGroupInformation.createRemoteUser(owner)
            .doAs(
                (PrivilegedExceptionAction<Void>)
                    () -> {
                      try (FileSystem fs = FileSystem.newInstance(self, conf)) {
                        TrashPolicyDefault trash = new TrashPolicyDefault();
                        trash.initialize(conf, fs);
                        trash.deleteCheckpoint();
                        trash.createCheckpoint(new Date(now));
                      }
                      return null;
                    });
      } catch (IOException | InterruptedException e) {
        LOG.warn("trash of {} not emptied: {}", owner, e.toString());
      }
    }
  }
}
