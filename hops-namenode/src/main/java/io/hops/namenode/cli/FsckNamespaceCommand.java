package io.hops.namenode.cli;

import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.namenode.check.Liveness;
import io.hops.namenode.check.NamespaceCheck;
import io.hops.namenode.check.NamespaceRepair;
import io.hops.namenode.check.Problem;
import io.hops.namenode.config.NamenodeConfig;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongPredicate;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops fsck-namespace}: checks the namespace's invariants in the metadata database ({@link
 * NamespaceCheck}), where {@code hops fsck} (HDFS's fsck) checks the blocks of files. Exit code 0
 * when consistent, 1 when a problem remains, 2 when the check could not run.
 */
@Command(
    name = "fsck-namespace",
    description =
        "Check the namespace in the metadata database: parents, names, cycles, partitions,"
            + " blocks and replicas, subtree marks of dead namenodes, quota usage. Exit 0 if"
            + " consistent, 1 if not.")
public final class FsckNamespaceCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Option(
      names = "--repair",
      description =
          "Repair what is safe: clear subtree marks of dead namenodes, move orphans to"
              + " /lost+found, set quota usage to what the tree holds. Refused while a namenode"
              + " is live, unless the cluster is in safe mode (hdfs dfsadmin -safemode enter).")
  boolean repair;

  @Option(
      names = "--batch",
      paramLabel = "ROWS",
      description = "Rows read per transaction (default ${DEFAULT-VALUE}).")
  int batch = 10_000;

  @Override
  public Integer call() throws Exception {
    Configuration conf = Confs.load(confDir);
    try (Storage storage = Storages.open(NamenodeConfig.dalConfig(conf))) {
      Liveness alive = Liveness.of(storage, conf);
      if (repair) {
        String refusal = writersRefusal(storage, alive.live());
        if (refusal != null) {
          System.err.println("fsck-namespace: --repair refused: " + refusal);
          return 2;
        }
      }
      return run(storage, batch, repair, alive, System.out);
    } catch (java.io.IOException | RuntimeException e) {
      System.err.println("fsck-namespace: " + e.getMessage());
      return 2;
    }
  }

  /**
   * Why a tool that must see the namespace still may not run now, or null. A repair writes what a
   * paged, non-snapshot read of the namespace found (quota usage above all), and an export is such
   * a read: a namenode writing at the same time would make them wrong. So they run only when no
   * namenode is live, or when the cluster is in safe mode, where no namenode writes the namespace.
   */
  static String writersRefusal(Storage storage, java.util.Set<Long> live)
      throws java.io.IOException {
    if (live.isEmpty() || io.hops.namenode.rpc.SafeMode.enteredManually(storage)) {
      return null;
    }
    return "namenode(s) "
        + new java.util.TreeSet<>(live)
        + " are live and the cluster is not in safe mode; run 'hdfs dfsadmin -safemode enter'"
        + " first (and leave it after the repair), or stop every namenode";
  }

  /** The check (and repair) over {@code storage}, reporting to {@code out}; the exit code. */
  public static int run(
      Storage storage, int batch, boolean repair, LongPredicate alive, PrintStream out)
      throws java.io.IOException {
    long start = System.nanoTime();
    NamespaceCheck check = new NamespaceCheck(storage, batch, out::println, alive);
    List<Problem> problems = check.run();
    problems.forEach(p -> out.println(p));
    if (repair && !problems.isEmpty()) {
      List<Problem> fixed = new NamespaceRepair(storage).repair(check, problems);
      fixed.forEach(p -> out.println("repaired " + p.kind() + ": " + p.text()));
      NamespaceCheck again = new NamespaceCheck(storage, batch, line -> {}, alive);
      problems = again.run();
      problems.forEach(p -> out.println("remains " + p));
    }
    out.printf(
        "The namespace is %s: %d problem(s) (%.1f s)%n",
        problems.isEmpty() ? "HEALTHY" : "CORRUPT",
        problems.size(),
        (System.nanoTime() - start) / 1e9);
    return problems.isEmpty() ? 0 : 1;
  }
}
