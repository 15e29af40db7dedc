package io.hops.bench.namespace;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.Path;

/**
 * Generates each client thread's tree from a {@link NamespaceSpec}.
 *
 * <p>A thread's tree has {@code dirsPerThread} directories filled breadth first, {@code
 * subdirsPerDir} children each, and {@code filesPerDir} files in every directory. Where the tree
 * alone would put files shallower than the target average depth, a spine of single directories is
 * inserted between the thread's directory and its tree (as {@code /user/NAME/project/...} puts real
 * data deep); the average file depth then lands within half a level of the target.
 */
public final class NamespaceGenerator {
  private final NamespaceSpec spec;
  private final Path base;

  public NamespaceGenerator(NamespaceSpec spec, Path base) {
    this.spec = spec;
    this.base = base;
  }

  public NamespaceSpec spec() {
    return spec;
  }

  /** The part of thread {@code threadName}: {@code base/threadName/[spine/]tree}. */
  public ThreadNamespace forThread(String threadName, long seed) {
    NameGenerator names = new NameGenerator(spec, new SplittableRandom(seed));
    Path root = new Path(base, threadName);
    Path treeRoot = root;
    for (int i = 0; i < spineLength(root.depth()); i++) {
      treeRoot = new Path(treeRoot, names.next('s'));
    }
    int n = spec.dirsPerThread();
    List<Path> dirs = new ArrayList<>(n);
    dirs.add(treeRoot);
    for (int i = 1; i < n; i++) {
      dirs.add(new Path(dirs.get((i - 1) / spec.subdirsPerDir()), names.next('d')));
    }
    List<Path> leaves = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if ((long) i * spec.subdirsPerDir() + 1 >= n) {
        leaves.add(dirs.get(i));
      }
    }
    List<Path> files = new ArrayList<>(n * spec.filesPerDir());
    for (Path dir : dirs) {
      for (int f = 0; f < spec.filesPerDir(); f++) {
        files.add(new Path(dir, names.next('f')));
      }
    }
    return new ThreadNamespace(root, List.copyOf(dirs), List.copyOf(leaves), List.copyOf(files));
  }

  /** Spine directories that bring the average file depth to the target. */
  int spineLength(int rootDepth) {
    double withoutSpine = rootDepth + 1 + meanTreeDepth();
    return (int) Math.max(0, Math.round(spec.depth() - withoutSpine));
  }

  /** The average depth of a directory below the tree's root (which is 0). */
  double meanTreeDepth() {
    int n = spec.dirsPerThread();
    int[] depth = new int[n];
    long sum = 0;
    for (int i = 1; i < n; i++) {
      depth[i] = depth[(i - 1) / spec.subdirsPerDir()] + 1;
      sum += depth[i];
    }
    return (double) sum / n;
  }
}
