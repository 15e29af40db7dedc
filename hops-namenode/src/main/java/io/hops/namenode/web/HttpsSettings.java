package io.hops.namenode.web;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;

/**
 * The checks HTTPS needs before the server is built ({@code dfs.http.policy} {@code HTTPS_ONLY} or
 * {@code HTTP_AND_HTTPS}): HDFS only warns about a missing {@code ssl-server.xml} and then fails
 * deep inside Jetty, or serves nothing; hops refuses to start with the file, key or keystore it
 * misses named. Messages name keys and files, never a password.
 */
final class HttpsSettings {
  private HttpsSettings() {}

  static void check(Configuration conf) throws IOException {
    String resource =
        conf.get(
            DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY,
            DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_DEFAULT);
    String policy = conf.get(DFSConfigKeys.DFS_HTTP_POLICY_KEY);
    URL found = conf.getResource(resource);
    if (found == null) {
      throw new IOException(
          DFSConfigKeys.DFS_HTTP_POLICY_KEY
              + " is "
              + policy
              + " but "
              + resource
              + " ("
              + DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY
              + ") is not on the classpath: HTTPS needs it to name the server's keystore"
              + " (docs/security.md, \"HTTP\")");
    }
    Configuration ssl = DFSUtil.loadSslConfiguration(conf);
    String keystore = ssl.get(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_LOCATION_KEY);
    if (keystore == null || keystore.isEmpty()) {
      throw new IOException(
          found + " does not set " + DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_LOCATION_KEY);
    }
    if (!new File(keystore).canRead()) {
      throw new IOException(
          "the keystore "
              + keystore
              + " ("
              + DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_LOCATION_KEY
              + " in "
              + found
              + ") cannot be read");
    }
    if (DFSUtil.getPassword(ssl, DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_PASSWORD_KEY) == null) {
      throw new IOException(
          found + " does not set " + DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_PASSWORD_KEY);
    }
  }
}
