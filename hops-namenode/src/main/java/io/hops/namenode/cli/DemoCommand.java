package io.hops.namenode.cli;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops demo}: starts a namenode over the configured store on free ports and three datanodes,
 * runs a few stock {@code hdfs dfs} commands (data goes through the datanodes and comes back
 * identical), shows what {@code hdfs dfsadmin -report} and {@code hdfs fsck} say, and stops.
 */
@Command(
    name = "demo",
    description =
        "Start a namenode and 3 datanodes, run a few 'hdfs dfs' commands, 'dfsadmin -report' and"
            + " 'fsck' on them, stop.")
final class DemoCommand implements Callable<Integer> {
  private static final int BLOCK = 1024 * 1024;

  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Where the datanodes keep blocks: DIR/datanode-N (default: ${DEFAULT-VALUE}).")
  File dataDir = new File("data");

  @Override
  public Integer call() throws Exception {
    Configuration conf = Confs.load(confDir);
    conf.setInt(NamenodeConfig.RPC_PORT, 0); // and so HTTP on a free port too
    Path local = Files.createTempDirectory("hops-demo-");
    try (HopsNameNode nn = HopsNameNode.start(conf);
        LocalDatanodes dns = LocalDatanodes.start(conf, nn, dataDir, 3)) {
      System.out.println("namenode serving at " + nn.uri() + ", web UI at " + nn.httpUri());
      System.out.println("3 datanodes, blocks in " + dataDir.getAbsolutePath() + "/datanode-N");
      Configuration client = new Configuration(conf);
      client.set("fs.defaultFS", nn.uri());
      client.set(
          DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY,
          nn.httpAddress().getHostString() + ":" + nn.httpAddress().getPort());
      client.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
      String home =
          "/user/" + System.getProperty("user.name") + "/demo-" + System.currentTimeMillis();
      Path notes = local.resolve("notes.txt");
      Files.writeString(
          notes,
          "hops keeps the namespace in a database;\nstock datanodes keep the bytes.\n",
          StandardCharsets.UTF_8);
      byte[] data = new byte[3 * BLOCK + 12345];
      new Random(42).nextBytes(data);
      Path big = local.resolve("big.bin");
      Files.write(big, data);
      Path back = local.resolve("big.back");
      List<String[]> commands =
          List.of(
              new String[] {"-mkdir", "-p", home + "/logs/2026", home + "/tables"},
              new String[] {"-touchz", home + "/logs/2026/empty.log"},
              new String[] {"-mv", home + "/logs/2026/empty.log", home + "/tables/"},
              new String[] {"-chmod", "750", home + "/tables"},
              new String[] {"-put", notes.toString(), home + "/notes.txt"},
              new String[] {"-cat", home + "/notes.txt"},
              new String[] {"-put", big.toString(), home + "/big.bin"},
              new String[] {"-get", home + "/big.bin", back.toString()},
              new String[] {"-ls", "-R", home},
              new String[] {"-count", home},
              new String[] {"-rm", "-r", "-skipTrash", home + "/logs"});
      if (nn.safeMode().inStartupSafeMode()) {
        // The namespace kept blocks from an earlier run: as HDFS's, the namenode is in safe mode
        // until the datanodes' blocks are counted and dfs.namenode.safemode.extension has passed.
        System.out.println(
            "\n$ hdfs dfsadmin -safemode wait   (blocks from an earlier run: startup safe mode)");
        int rc = ToolRunner.run(new DFSAdmin(client), new String[] {"-safemode", "wait"});
        if (rc != 0) {
          return rc;
        }
      }
      for (String[] args : commands) {
        System.out.println(
            "\n$ hdfs dfs " + String.join(" ", args).replace(local.toString(), "/tmp"));
        int rc = ToolRunner.run(new FsShell(client), args);
        if (rc != 0) {
          return rc;
        }
      }
      boolean same = Arrays.equals(data, Files.readAllBytes(back));
      System.out.println(
          "\n"
              + data.length
              + " bytes went to the datanodes in "
              + (data.length + BLOCK - 1) / BLOCK
              + " blocks of 3 replicas and came back "
              + (same ? "identical" : "DIFFERENT"));
      if (!same) {
        return 1;
      }
      System.out.println(
          "\n$ hdfs dfsadmin -report   (the summary, then only the datanodes' names)");
      Captured report = capture(out -> new DFSAdmin(client), "-report");
      boolean summary = true;
      for (String line : report.out.split("\n")) {
        summary &= !line.startsWith("---");
        if (summary || line.startsWith("Live datanodes") || line.startsWith("Name:")) {
          System.out.println(line);
        }
      }
      System.out.println("\n$ hdfs fsck " + home + " -files -blocks");
      Captured fsck = capture(out -> new DFSck(client, out), home, "-files", "-blocks");
      System.out.print(fsck.out);
      System.out.println(
          "\n\nThe namespace lives in the metadata store and the blocks in the datanodes'"
              + " directories; run it again to see it grow.");
      return report.rc == 0 && fsck.rc == 0 ? 0 : 1;
    } finally {
      org.apache.hadoop.fs.FileUtil.fullyDelete(local.toFile());
    }
  }

  /** Makes a stock tool that prints to a given stream. */
  private interface ToolFactory {
    Tool make(PrintStream out) throws IOException;
  }

  /** A stock tool's exit code and what it printed on stdout. */
  private record Captured(int rc, String out) {}

  /** Runs a stock tool, made for the stream it should print to, and keeps what it printed. */
  private static Captured capture(ToolFactory make, String... args) throws Exception {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int rc;
    try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      System.setOut(ps); // DFSAdmin prints to System.out
      rc = ToolRunner.run(make.make(ps), args);
    } finally {
      System.setOut(old);
    }
    return new Captured(rc, buf.toString(StandardCharsets.UTF_8));
  }
}
