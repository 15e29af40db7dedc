package io.hops.bench.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A file system that is already running ({@code --fs URI}, or a test's in-process cluster). */
public record ExternalTarget(
    String system, String uri, Map<String, String> clientConf, List<Long> namenodePids)
    implements Target {

  public ExternalTarget {
    clientConf = Map.copyOf(clientConf);
    namenodePids = List.copyOf(namenodePids);
  }

  @Override
  public Map<String, String> facts() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("started by", "not this run");
    return f;
  }

  @Override
  public void close() {}
}
