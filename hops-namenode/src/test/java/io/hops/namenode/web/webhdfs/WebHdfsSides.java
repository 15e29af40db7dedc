package io.hops.namenode.web.webhdfs;

import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;

/**
 * hops (a namenode and one stock DataNode) and Apache HDFS (a MiniDFSCluster with one DataNode)
 * side by side, each reachable by {@code hdfs://} and by WebHDFS, and raw HTTP requests to either.
 */
final class WebHdfsSides implements AutoCloseable {
  /** One side: its WebHDFS address ({@code host:port}) and clients. */
  record Side(String name, String http, DistributedFileSystem dfs, Configuration conf) {
    URI webhdfs() {
      return URI.create("webhdfs://" + http);
    }

    /** A new WebHdfsFileSystem client as the current user. */
    WebHdfsFileSystem web() throws IOException {
      return (WebHdfsFileSystem) FileSystem.newInstance(webhdfs(), conf);
    }

    /** A raw request: status, Location header and body. */
    Raw raw(String method, String pathAndQuery) throws IOException {
      HttpURLConnection c =
          (HttpURLConnection) new URL("http://" + http + pathAndQuery).openConnection();
      c.setRequestMethod(method);
      c.setInstanceFollowRedirects(false);
      int status = c.getResponseCode();
      InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
      String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      String type = c.getContentType();
      c.disconnect();
      return new Raw(status, c.getHeaderField("Location"), type, body);
    }
  }

  /** A raw HTTP answer. */
  record Raw(int status, String location, String contentType, String body) {}

  final HopsTestCluster hopsCluster;
  final MiniDFSCluster hdfsCluster;
  final Side hops;
  final Side hdfs;

  WebHdfsSides(String name) throws IOException {
    this(name, new Configuration(false));
  }

  WebHdfsSides(String name, Configuration extra) throws IOException {
    hopsCluster = new HopsTestCluster(extra);
    hopsCluster.startDatanodes(1);
    Configuration conf = new Configuration();
    extra.forEach(e -> conf.set(e.getKey(), e.getValue()));
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/minidfs-" + name + "-" + System.nanoTime()).getAbsolutePath());
    hdfsCluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    hdfsCluster.waitActive();
    Configuration hopsClient = hopsCluster.clientConf();
    hopsClient.setInt("dfs.replication", 1);
    hopsClient.setBoolean("fs.webhdfs.impl.disable.cache", true);
    var hopsAddr = hopsCluster.namenode().httpAddress();
    hops =
        new Side(
            "hops",
            hopsAddr.getHostString() + ":" + hopsAddr.getPort(),
            (DistributedFileSystem) FileSystem.newInstance(hopsCluster.uri(), hopsClient),
            hopsClient);
    Configuration hdfsClient = new Configuration(hdfsCluster.getConfiguration(0));
    hdfsClient.setBoolean("fs.hdfs.impl.disable.cache", true);
    hdfsClient.setBoolean("fs.webhdfs.impl.disable.cache", true);
    hdfsClient.setInt("dfs.replication", 1);
    var hdfsAddr = hdfsCluster.getNameNode().getHttpAddress();
    hdfs =
        new Side(
            "hdfs",
            hdfsAddr.getHostString() + ":" + hdfsAddr.getPort(),
            (DistributedFileSystem) FileSystem.newInstance(hdfsCluster.getURI(), hdfsClient),
            hdfsClient);
  }

  Side[] both() {
    return new Side[] {hops, hdfs};
  }

  @Override
  public void close() throws IOException {
    for (Side s : both()) {
      if (s != null) {
        s.dfs.close();
      }
    }
    hopsCluster.close();
    hdfsCluster.shutdown();
  }

  /** Sorted for comparison. */
  static Map<String, Object> sorted(Map<String, Object> m) {
    return new TreeMap<>(m);
  }
}
