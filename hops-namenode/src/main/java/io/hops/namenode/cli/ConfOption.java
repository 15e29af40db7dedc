package io.hops.namenode.cli;

import io.hops.dal.DalConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The {@code --conf DIR} option every command shares, and the store settings it leads to. */
final class ConfOption {
  private static final Path DEFAULT_DIR = Path.of("conf");

  @Spec(Spec.Target.MIXEE)
  private picocli.CommandLine.Model.CommandSpec mixee;

  @Option(
      names = "--conf",
      paramLabel = "DIR",
      description =
          "Configuration directory holding hdfs-site.xml; default: conf in the current"
              + " directory, where a missing file means every setting has its default.")
  private Path confDir;

  /** The {@code hops.metadata.*} settings; an explicitly named directory must exist. */
  DalConfig load() {
    if (confDir != null && !Files.isDirectory(confDir)) {
      throw new ParameterException(
          mixee.commandLine(), "configuration directory " + confDir + " does not exist");
    }
    return MetadataConf.load(confDir == null ? DEFAULT_DIR : confDir);
  }
}
