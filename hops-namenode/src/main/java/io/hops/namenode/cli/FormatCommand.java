package io.hops.namenode.cli;

import io.hops.dal.DalConfig;
import io.hops.dal.SchemaAdmin;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.schema.Tables;
import io.hops.namenode.upgrade.SchemaVersion;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Prepares the metadata store. Like {@code hdfs namenode -format -nonInteractive}, it never wipes a
 * namespace unless told to: on a store that holds data it only upgrades the schema and exits 1.
 */
@Command(
    name = "format",
    description = {
      "Create the metadata schema, or upgrade an older one by adding what it lacks. Idempotent.",
      "",
      "If the store already holds data, the data is kept (the schema is still upgraded) and the"
          + " command exits with status "
          + HopsCli.EXIT_KEPT_DATA
          + ", like 'hdfs namenode -format -nonInteractive' on an existing namespace, so a script"
          + " never mistakes a kept namespace for a fresh one. Use --force to wipe it."
    })
final class FormatCommand implements Callable<Integer> {
  @Spec private picocli.CommandLine.Model.CommandSpec spec;
  @Mixin private ConfOption conf;

  @Option(
      names = "--force",
      description = "Drop every table with its data and create the schema empty.")
  private boolean force;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    DalConfig config = conf.load();
    out.println("engine:  " + config.engine());
    out.println("store:   " + MetadataConf.location(config));
    out.flush();
    try (Storage storage = Storages.open(config)) {
      SchemaAdmin schema = storage.schema();
      if (force) {
        List<String> dropped = schema.existingTables();
        schema.dropAll();
        out.println("wiped:   dropped " + dropped.size() + " tables with their data");
      }
      List<String> existing = schema.existingTables();
      long version = SchemaVersion.stored(storage);
      SchemaVersion.refuseNewer(version);
      boolean hadData = schema.hasData();
      List<String> created = schema.createOrUpgrade();
      if (hadData) {
        // An upgrade of a namespace: recorded, so namenodes of this release start without DDL. An
        // empty store stays empty; its first namenode records the version.
        SchemaVersion.backfillVersionLog(storage, version, line -> out.println("note:    " + line));
        SchemaVersion.record(storage);
      }
      if (!created.isEmpty()) {
        out.println("created: " + created.size() + " tables " + created);
      }
      if (!existing.isEmpty()) {
        out.println(
            "checked: "
                + existing.size()
                + " tables already existed; columns they lacked, if any, were added");
      }
      out.println(
          "schema:  "
              + Tables.ALL.size()
              + " tables, up to date (version "
              + SchemaVersion.CURRENT
              + (version != 0 && version != SchemaVersion.CURRENT
                  ? ", upgraded from " + version
                  : "")
              + ")");
      if (schema.hasData()) {
        out.println(
            "The metadata store already holds data; it was kept. Run 'hops format --force' to"
                + " wipe it and start an empty namespace.");
        out.flush();
        return HopsCli.EXIT_KEPT_DATA;
      }
      out.println("The metadata store is empty and ready.");
      out.flush();
      return 0;
    }
  }
}
