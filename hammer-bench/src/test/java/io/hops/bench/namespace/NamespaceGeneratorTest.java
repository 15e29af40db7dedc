package io.hops.bench.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class NamespaceGeneratorTest {
  private static List<ThreadNamespace> generate(NamespaceSpec spec, String base, int threads) {
    NamespaceGenerator g = new NamespaceGenerator(spec, new Path(base));
    List<ThreadNamespace> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      all.add(g.forThread("c0-t" + t, 1000 + t));
    }
    return all;
  }

  private static double meanFileDepth(List<ThreadNamespace> all) {
    return all.stream()
        .flatMap(ns -> ns.files().stream())
        .mapToInt(Path::depth)
        .average()
        .orElseThrow();
  }

  @Test
  void spotifyNamespaceHasTheShapePublishedForSpotifysCluster() {
    List<ThreadNamespace> all = generate(NamespaceSpec.SPOTIFY, "/hammer/r1", 64);

    assertThat(meanFileDepth(all)).isCloseTo(7.0, within(0.5));
    for (ThreadNamespace ns : all) {
      Map<Path, Integer> subdirs = new HashMap<>();
      Map<Path, Integer> files = new HashMap<>();
      ns.dirs().forEach(d -> subdirs.merge(d.getParent(), 1, Integer::sum));
      ns.files().forEach(f -> files.merge(f.getParent(), 1, Integer::sum));
      assertThat(ns.dirs()).hasSize(31);
      for (Path d : ns.dirs()) {
        assertThat(files.get(d)).as("files in %s", d).isEqualTo(16);
        boolean leaf = ns.leafDirs().contains(d);
        assertThat(subdirs.getOrDefault(d, 0)).as("subdirs of %s", d).isEqualTo(leaf ? 0 : 2);
      }
      assertThat(ns.files()).hasSize(31 * 16).doesNotHaveDuplicates();
      assertThat(ns.dirs())
          .allMatch(d -> d.toString().startsWith("/hammer/r1/" + ns.root().getName()));
    }
    double nameLength =
        all.stream()
            .flatMap(ns -> java.util.stream.Stream.concat(ns.dirs().stream(), ns.files().stream()))
            .filter(p -> p.depth() > 3)
            .mapToInt(p -> p.getName().length())
            .average()
            .orElseThrow();
    assertThat(nameLength).isCloseTo(34.0, within(0.5));
  }

  @Test
  void everyPathOfEveryThreadIsDistinct() {
    List<ThreadNamespace> all = generate(NamespaceSpec.SPOTIFY, "/hammer/r1", 16);
    Set<Path> seen = new HashSet<>();
    for (ThreadNamespace ns : all) {
      ns.dirs().forEach(d -> assertThat(seen.add(d)).as("%s twice", d).isTrue());
      ns.files().forEach(f -> assertThat(seen.add(f)).as("%s twice", f).isTrue());
    }
  }

  @Test
  void aDeeperTargetGetsASpineAboveTheTree() {
    NamespaceSpec deep = new NamespaceSpec(12, 2, 16, 34, 8, 31, 0);
    List<ThreadNamespace> all = generate(deep, "/hammer/r1", 8);

    assertThat(meanFileDepth(all)).isCloseTo(12.0, within(0.5));
    ThreadNamespace ns = all.get(0);
    // The tree's root sits five single directories below the thread's directory.
    assertThat(ns.dirs().get(0).depth() - ns.root().depth()).isEqualTo(5);
  }

  @Test
  void everyKnobChangesTheShape() {
    NamespaceSpec spec = new NamespaceSpec(9, 3, 5, 20, 4, 40, 0);
    List<ThreadNamespace> all = generate(spec, "/b", 10);

    assertThat(meanFileDepth(all)).isCloseTo(9.0, within(0.5));
    ThreadNamespace ns = all.get(0);
    assertThat(ns.dirs()).hasSize(40);
    assertThat(ns.files()).hasSize(200);
    Map<Path, Integer> subdirs = new HashMap<>();
    ns.dirs().forEach(d -> subdirs.merge(d.getParent(), 1, Integer::sum));
    assertThat(subdirs.get(ns.dirs().get(0))).isEqualTo(3);
    assertThat(ns.files()).allSatisfy(f -> assertThat(f.getName().length()).isBetween(16, 24));
  }

  @Test
  void theSameSeedGivesTheSameNamespace() {
    NamespaceGenerator g = new NamespaceGenerator(NamespaceSpec.SPOTIFY, new Path("/x"));
    assertThat(g.forThread("t", 5)).isEqualTo(g.forThread("t", 5));
    assertThat(g.forThread("t", 5).files()).isNotEqualTo(g.forThread("t", 6).files());
  }

  @Test
  void thePartNamesAreThePathsNames() {
    NamespaceGenerator g = new NamespaceGenerator(NamespaceSpec.SPOTIFY, new Path("/hammer-ns"));
    ThreadNamespace paths = g.forThread("p7", 49);
    NamespaceGenerator.PartNames names = g.namesForThread(49);

    Path treeRoot = paths.root();
    for (String s : names.spine()) {
      treeRoot = new Path(treeRoot, s);
    }
    assertThat(paths.dirs().get(0)).isEqualTo(treeRoot);
    for (int i = 1; i < names.dirs().length; i++) {
      assertThat(paths.dirs().get(i))
          .isEqualTo(new Path(paths.dirs().get(g.dirParent(i)), names.dirs()[i]));
    }
    int perDir = NamespaceSpec.SPOTIFY.filesPerDir();
    assertThat(names.files()).hasSize(paths.files().size());
    for (int i = 0; i < names.files().length; i++) {
      assertThat(paths.files().get(i))
          .isEqualTo(new Path(paths.dirs().get(i / perDir), names.files()[i]));
    }
  }
}
