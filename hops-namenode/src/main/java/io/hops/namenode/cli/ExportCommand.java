package io.hops.namenode.cli;

import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.dump.NamespaceDump;
import io.hops.namenode.check.Liveness;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hops export DIR}: the whole metadata of the configured store written to {@code DIR} in the
 * engine-neutral format of {@link NamespaceDump}, for {@code hops import} into another store (a
 * newer embedded format, MariaDB, NDB). Exit 0 when written, 2 when refused or failed.
 */
@Command(
    name = "export",
    description =
        "Write the whole namespace (inodes, blocks, replicas, leases, xattrs, ACLs, quotas, small"
            + " files, datanodes, ids) of the configured metadata store to DIR, in a versioned,"
            + " engine-neutral format that 'hops import' reads into any store. Refused while a"
            + " namenode is live, unless the cluster is in safe mode.")
public final class ExportCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Parameters(paramLabel = "DIR", description = "An empty or new directory to write the dump to.")
  Path dir;

  @Override
  public Integer call() {
    Configuration conf = Confs.load(confDir);
    try (Storage storage = Storages.open(NamenodeConfig.dalConfig(conf))) {
      String refusal =
          FsckNamespaceCommand.writersRefusal(storage, Liveness.of(storage, conf).live());
      if (refusal != null) {
        System.err.println("export: refused: " + refusal);
        return 2;
      }
      long start = System.nanoTime();
      NamespaceDump.Counts counts = NamespaceDump.export(storage, dir, System.out::println);
      System.out.println(summary("exported", counts, "to", dir, start));
      return 0;
    } catch (java.io.IOException | RuntimeException e) {
      System.err.println("export: " + e.getMessage());
      return 2;
    }
  }

  /** {@code exported 12 rows (3 inodes) to DIR in 0.1 s: 30 inodes/s}; import's line too. */
  static String summary(
      String done, NamespaceDump.Counts counts, String preposition, Path dir, long startNanos) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    long inodes = counts.rows().getOrDefault("inodes", 0L);
    return String.format(
        "%s %d rows (%d inodes) %s %s in %.1f s: %.0f inodes/s",
        done, counts.total(), inodes, preposition, dir, seconds, inodes / Math.max(seconds, 1e-3));
  }
}
