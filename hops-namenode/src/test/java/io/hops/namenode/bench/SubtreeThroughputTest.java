package io.hops.namenode.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Runs {@link SubtreeThroughput} from Maven when asked: {@code mvn -o -pl hops-namenode -am test
 * -Dtest=SubtreeThroughputTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dhops.bench.subtree=10000,100000}. Skipped otherwise.
 */
class SubtreeThroughputTest {
  @Test
  @EnabledIfSystemProperty(named = "hops.bench.subtree", matches = ".+")
  void measure() throws Exception {
    SubtreeThroughput.main(System.getProperty("hops.bench.subtree").split(","));
  }
}
