package io.hops.namenode.cli;

import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.dump.NamespaceDump;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hops import DIR}: a dump written by {@code hops export} loaded into the configured
 * metadata store, whose schema is created first and which must hold no data. Exit 0 when loaded, 2
 * when refused or failed (a failed load leaves a partial store: format it and load again).
 */
@Command(
    name = "import",
    description =
        "Load a dump written by 'hops export' into the configured metadata store (of any"
            + " engine), which must be empty: the schema is created first. Start the namenodes"
            + " and the same datanodes afterwards.")
public final class ImportCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Parameters(paramLabel = "DIR", description = "The directory 'hops export' wrote.")
  Path dir;

  @Override
  public Integer call() {
    Configuration conf = Confs.load(confDir);
    try (Storage storage = Storages.open(NamenodeConfig.dalConfig(conf))) {
      storage.schema().createOrUpgrade();
      long start = System.nanoTime();
      NamespaceDump.Counts counts = NamespaceDump.importInto(storage, dir, System.out::println);
      System.out.println(ExportCommand.summary("imported", counts, "from", dir, start));
      return 0;
    } catch (java.io.IOException | RuntimeException e) {
      System.err.println("import: " + e.getMessage());
      return 2;
    }
  }
}
