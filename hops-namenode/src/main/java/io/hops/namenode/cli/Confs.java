package io.hops.namenode.cli;

import io.hops.namenode.HopsNameNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/** Loads {@code DIR/core-site.xml} and {@code DIR/hdfs-site.xml}; missing files mean defaults. */
final class Confs {
  static final String DEFAULT_FS = "hdfs://127.0.0.1:8020";

  private Confs() {}

  /** Blocks until the process is asked to stop, then closes the namenode. */
  static void serveUntilKilled(HopsNameNode nn) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  nn.close();
                  stopped.countDown();
                }));
    stopped.await();
  }

  static Configuration load(String dir) {
    Configuration conf = new HdfsConfiguration();
    for (String name : new String[] {"core-site.xml", "hdfs-site.xml"}) {
      Path file = Path.of(dir).resolve(name);
      if (Files.isRegularFile(file)) {
        conf.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()));
      }
    }
    if (conf.get("fs.defaultFS", "file:///").startsWith("file:")) {
      conf.set("fs.defaultFS", DEFAULT_FS);
    }
    return conf;
  }
}
