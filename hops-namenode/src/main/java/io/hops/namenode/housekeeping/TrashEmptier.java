package io.hops.namenode.housekeeping;

import io.hops.election.ClusterClock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
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
 * namenode, as each trash's owner (simple authentication), so trash semantics are Hadoop's, but for
 * the clock: checkpoints are named, and their age measured, by the cluster clock, since the next
 * leader judges the checkpoints this one made (Hadoop's {@code deleteCheckpoint} measures with the
 * process's own clock, so it is done here).
 */
final class TrashEmptier implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(TrashEmptier.class);

  /** How Hadoop names a checkpoint: its time, and "-N" if that name was taken. */
  private static final String CHECKPOINT = "yyMMddHHmmss";

  /** Checkpoints of Hadoop 1.x, still read as Hadoop does. */
  private static final String OLD_CHECKPOINT = "yyMMddHHmm";

  private final Configuration conf;
  private final URI self;
  private final ClusterClock clock;
  private final long deletion;
  private final long interval;
  private long next = -1;

  private TrashEmptier(
      Configuration conf, URI self, ClusterClock clock, long deletion, long interval) {
    this.conf = conf;
    this.self = self;
    this.clock = clock;
    this.deletion = deletion;
    this.interval = interval;
  }

  /** The emptier for this configuration, or null when trash is off. */
  static TrashEmptier of(Configuration namenodeConf, ClusterClock clock, URI self) {
    Configuration conf = new Configuration(namenodeConf);
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
    return new TrashEmptier(conf, self, clock, deletion, checkpoint);
  }

  @Override
  public String name() {
    return "trash emptier";
  }

  @Override
  public void runOnce() throws IOException {
    long now = clock.now();
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
                        deleteOldCheckpoints(fs, now);
                        trash.createCheckpoint(new Date(now));
                      }
                      return null;
                    });
      } catch (IOException | InterruptedException e) {
        LOG.warn("trash of {} not emptied: {}", owner, e.toString());
      }
    }
  }

  /**
   * Removes the owner's checkpoints older than the deletion interval at {@code now}, as {@code
   * TrashPolicyDefault.deleteCheckpoint}; an item of a trash root that is not a checkpoint stays.
   */
  private void deleteOldCheckpoints(FileSystem fs, long now) throws IOException {
    for (FileStatus root : fs.getTrashRoots(false)) {
      FileStatus[] items;
      try {
        items = fs.listStatus(root.getPath());
      } catch (FileNotFoundException e) {
        continue;
      }
      for (FileStatus item : items) {
        Path path = item.getPath();
        if (path.getName().equals("Current")) {
          continue;
        }
        long time;
        try {
          time = checkpointTime(path.getName());
        } catch (ParseException e) {
          LOG.warn("Unexpected item in trash: {}. Ignoring.", path.toUri().getPath());
          continue;
        }
        if (now - deletion > time && !fs.delete(path, true)) {
          LOG.warn("Couldn't delete checkpoint: {} Ignoring.", path.toUri().getPath());
        }
      }
    }
  }

  private static long checkpointTime(String name) throws ParseException {
    try {
      return new SimpleDateFormat(CHECKPOINT).parse(name).getTime();
    } catch (ParseException e) {
      return new SimpleDateFormat(OLD_CHECKPOINT).parse(name).getTime();
    }
  }
}
