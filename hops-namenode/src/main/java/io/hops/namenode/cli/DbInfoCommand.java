package io.hops.namenode.cli;

import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** What the store is and what it holds. */
@Command(
    name = "db-info",
    description = {
      "Show the metadata store: engine, location, every table with its row count, and the"
          + " database accesses this took.",
      "Counting reads every row of every table (a full table scan each): meant for small stores."
    })
final class DbInfoCommand implements Callable<Integer> {
  @Spec private picocli.CommandLine.Model.CommandSpec spec;
  @Mixin private ConfOption conf;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    DalConfig config = conf.load();
    out.println("engine:   " + config.engine());
    out.println("store:    " + MetadataConf.location(config));
    out.flush();
    try (Storage storage = Storages.open(config)) {
      List<String> existing = storage.schema().existingTables();
      out.println("tables:   " + existing.size() + " of " + Tables.ALL.size());
      for (Table<?> table : Tables.ALL) {
        String rows = existing.contains(table.name()) ? count(storage, table) + " rows" : "missing";
        out.printf("  %-28s %s%n", table.name(), rows);
      }
      if (existing.size() < Tables.ALL.size()) {
        out.println("Tables are missing: run 'hops format' to create them.");
      }
      out.println("accesses: " + storage.accessCounts());
      out.flush();
      return 0;
    }
  }

  private static int count(Storage storage, Table<?> table) throws Exception {
    try (Transaction tx = storage.begin()) {
      int n = tx.scanAll(table, LockMode.READ_COMMITTED).size();
      tx.commit();
      return n;
    }
  }
}
