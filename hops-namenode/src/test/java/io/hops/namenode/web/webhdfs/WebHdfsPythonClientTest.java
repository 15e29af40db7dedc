package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A client that is not Java: the PyPI {@code hdfs} package (HdfsCLI's {@code InsecureClient}) makes
 * directories, writes, appends, reads, lists, renames and deletes over WebHDFS against hops with a
 * real DataNode; the stock Java client then sees what it wrote. Python comes from .ci/run's venv
 * ({@code target/py-venv}, which installs {@code hdfs}), else one is made in {@code target/}.
 */
class WebHdfsPythonClientTest {
  private static final String SCRIPT =
      """
      import sys
      from hdfs import InsecureClient
      from hdfs.util import HdfsError
      c = InsecureClient(sys.argv[1], user=sys.argv[2])
      c.makedirs('/py/dir', permission='750')
      # one datanode: replication 1, or appending needs a second datanode (as on HDFS)
      c.write('/py/dir/hello.txt', data=b'hello from python\\n', overwrite=True, replication=1)
      c.write('/py/dir/hello.txt', data=b'appended\\n', append=True)
      with c.read('/py/dir/hello.txt') as r:
          print('READ ' + repr(r.read().decode()))
      with c.read('/py/dir/hello.txt', offset=6, length=4) as r:
          print('RANGE ' + r.read().decode())
      print('LIST ' + ','.join(c.list('/py/dir')))
      st = c.status('/py/dir/hello.txt')
      print('STATUS %s %d %s %s' % (st['type'], st['length'], st['permission'], st['owner']))
      print('DIR ' + c.status('/py/dir')['permission'])
      print('MISSING %s' % c.status('/py/nope', strict=False))
      try:
          c.status('/py/nope')
      except HdfsError as e:
          print('ERROR ' + str(e).splitlines()[0])
      c.write('/py/dir/gone.txt', data=b'x', replication=1)
      c.rename('/py/dir/gone.txt', '/py/dir/renamed.txt')
      print('DELETED %s' % c.delete('/py/dir/renamed.txt'))
      summary = c.content('/py')
      print('CONTENT %d %d %d' % (summary['length'], summary['fileCount'], summary['directoryCount']))
      c.set_replication('/py/dir/hello.txt', 2)
      print('REPLICATION %d' % c.status('/py/dir/hello.txt')['replication'])
      print('CHECKSUM ' + c.checksum('/py/dir/hello.txt')['algorithm'])
      """;

  @Test
  void pythonHdfsClientListsWritesAndReads() throws Exception {
    String python = Python.withHdfsClient();
    assumeTrue(python != null, "python3 is not installed (.ci/run installs it)");
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      cluster.startDatanodes(1);
      try (DistributedFileSystem fs = cluster.client()) {
        fs.mkdirs(new Path("/py"));
        fs.setOwner(new Path("/py"), "alice", "staff");
      }
      InetSocketAddress http = cluster.namenode().httpAddress();
      String url = "http://" + http.getHostString() + ":" + http.getPort();
      String out = Python.script(python, SCRIPT, url, "alice");
      assertThat(out)
          .contains(
              "READ 'hello from python\\nappended\\n'",
              "RANGE from",
              "LIST hello.txt",
              "STATUS FILE 27 644 alice",
              "DIR 750",
              "MISSING None",
              "ERROR File does not exist: /py/nope",
              "DELETED True",
              "CONTENT 27 1 2",
              "REPLICATION 2",
              "CHECKSUM MD5-of-0MD5-of-512CRC32C");
      try (DistributedFileSystem fs = cluster.client();
          FSDataInputStream in = fs.open(new Path("/py/dir/hello.txt"))) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("hello from python\nappended\n");
        assertThat(fs.getFileStatus(new Path("/py/dir/hello.txt")).getOwner()).isEqualTo("alice");
      }
    }
  }

  /** A Python 3 with the PyPI {@code hdfs} package: .ci/run's venv, else one made in target/. */
  static final class Python {
    static String withHdfsClient() throws Exception {
      for (String candidate :
          List.of("../target/py-venv/bin/python3", "target/py-venv/bin/python3")) {
        if (new File(candidate).canExecute() && hasClient(candidate)) {
          return candidate;
        }
      }
      if (!run("python3", "--version")) {
        return null;
      }
      if (hasClient("python3")) {
        return "python3";
      }
      String venv = "target/py-venv";
      if (!run("python3", "-m", "venv", venv) || !run(venv + "/bin/pip", "install", "-q", "hdfs")) {
        throw new AssertionError(
            "python3 has no hdfs package and it could not be installed into "
                + venv
                + " (pip install hdfs; .ci/run does it)");
      }
      return venv + "/bin/python3";
    }

    /** The output of {@code script} run with {@code args}, after asserting it exited with 0. */
    static String script(String python, String script, String... args) throws Exception {
      List<String> command = new ArrayList<>(List.of(python, "-c", script));
      command.addAll(List.of(args));
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s finished", python).isTrue();
      assertThat(p.exitValue()).as(out).isZero();
      return out;
    }

    private static boolean hasClient(String python) throws Exception {
      return run(python, "-c", "import hdfs");
    }

    private static boolean run(String... command) throws Exception {
      try {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0;
      } catch (IOException e) {
        return false;
      }
    }
  }
}
