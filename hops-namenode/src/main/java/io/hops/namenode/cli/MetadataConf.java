package io.hops.namenode.cli;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * The metadata store settings of a configuration directory: every {@code hops.metadata.*} key of
 * its {@code hdfs-site.xml}, read the way Hadoop reads it (variables expanded, final honoured).
 */
final class MetadataConf {
  static final String SITE_FILE = "hdfs-site.xml";
  private static final String PREFIX = "hops.metadata.";
  private static final Pattern PASSWORD_PARAM = Pattern.compile("(?i)((?:password|pwd)=)[^&;]*");
  private static final Pattern USER_INFO = Pattern.compile("//([^/:@]*):[^/@]*@");

  private MetadataConf() {}

  /** The settings of {@code confDir/hdfs-site.xml}; a missing file means every default. */
  static DalConfig load(Path confDir) {
    Path file = confDir.resolve(SITE_FILE);
    Configuration conf = new Configuration(false);
    if (Files.isRegularFile(file)) {
      conf.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()));
    }
    Map<String, String> values = new HashMap<>();
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith(PREFIX)) {
        values.put(e.getKey(), conf.get(e.getKey()));
      }
    }
    return DalConfig.of(values);
  }

  /** Where the store lives: the embedded store's directory, or the JDBC URL without password. */
  static String location(DalConfig config) {
    if (config.engine().equals(HopsConfig.METADATA_ENGINE_DEFAULT)) {
      String dir = config.get(HopsConfig.EMBEDDED_DIR, HopsConfig.EMBEDDED_DIR_DEFAULT);
      return dir.startsWith("mem:") ? dir : Path.of(dir).toAbsolutePath().normalize().toString();
    }
    String url = config.get(HopsConfig.JDBC_URL, "");
    if (url.isBlank()) {
      return "(" + HopsConfig.JDBC_URL + " is not set)";
    }
    String user = config.get(HopsConfig.JDBC_USER, "");
    return withoutPassword(url) + (user.isBlank() ? "" : " as " + user);
  }

  /** A JDBC URL fit to print: passwords in the query or the user info replaced by stars. */
  static String withoutPassword(String jdbcUrl) {
    String s = PASSWORD_PARAM.matcher(jdbcUrl).replaceAll("$1***");
    return USER_INFO.matcher(s).replaceAll("//$1:***@");
  }
}
