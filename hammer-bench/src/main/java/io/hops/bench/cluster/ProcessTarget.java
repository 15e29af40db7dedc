package io.hops.bench.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A system the benchmark started as processes: namenode(s) and, maybe, a datanode. */
final class ProcessTarget implements Target {
  private final String system;
  private final String uri;
  private final Map<String, String> clientConf;
  private final List<JavaProcess> namenodes;
  private final List<JavaProcess> others;
  private final Map<String, String> facts;

  ProcessTarget(
      String system,
      String uri,
      Map<String, String> clientConf,
      List<JavaProcess> namenodes,
      List<JavaProcess> others,
      Map<String, String> facts) {
    this.system = system;
    this.uri = uri;
    this.clientConf = Map.copyOf(clientConf);
    this.namenodes = List.copyOf(namenodes);
    this.others = new ArrayList<>(others);
    this.facts = facts;
  }

  @Override
  public String system() {
    return system;
  }

  @Override
  public String uri() {
    return uri;
  }

  @Override
  public Map<String, String> clientConf() {
    return clientConf;
  }

  @Override
  public List<Long> namenodePids() {
    return namenodes.stream().map(JavaProcess::pid).toList();
  }

  @Override
  public Map<String, String> facts() {
    return facts;
  }

  @Override
  public void close() {
    others.forEach(JavaProcess::close);
    namenodes.forEach(JavaProcess::close);
  }
}
