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

  /**
   * The names of a part, without paths: what {@link #forThread} makes paths of, for a caller that
   * makes millions of them (Hadoop's {@code Path} parses a URI for each).
   *
   * @param spine the single directories between the thread's directory and the tree, top down
   * @param dirs the tree's directory names, breadth first: directory {@code i > 0} is below {@link
   *     #dirParent directory (i - 1) / subdirsPerDir}, directory 0 below the spine's last
   * @param files the file names, {@code filesPerDir} in each directory, in the order of {@code
   *     dirs}
   */
  public record PartNames(List<String> spine, String[] dirs, String[] files) {}

  /** The names of the part whose names follow from {@code seed} (those of {@link #forThread}). */
  public PartNames namesForThread(long seed) {
    NameGenerator names = new NameGenerator(spec, new SplittableRandom(seed));
    int spineLength = spineLength(base.depth() + 1);
    List<String> spine = new ArrayList<>(spineLength);
    for (int i = 0; i < spineLength; i++) {
      spine.add(names.next('s'));
    }
    int n = spec.dirsPerThread();
    String[] dirs = new String[n];
    for (int i = 1; i < n; i++) {
      dirs[i] = names.next('d');
    }
    String[] files = new String[n * spec.filesPerDir()];
    for (int i = 0; i < files.length; i++) {
      files[i] = names.next('f');
    }
    return new PartNames(spine, dirs, files);
  }

  /** The index of directory {@code i}'s parent in its part's tree ({@code i > 0}). */
  public int dirParent(int i) {
    return (i - 1) / spec.subdirsPerDir();
  }

  /** The part of thread {@code threadName}: {@code base/threadName/[spine/]tree}. */
  public ThreadNamespace forThread(String threadName, long seed) {
    PartNames names = namesForThread(seed);
    Path root = new Path(base, threadName);
    Path treeRoot = root;
    for (String s : names.spine()) {
      treeRoot = new Path(treeRoot, s);
    }
    int n = spec.dirsPerThread();
    List<Path> dirs = new ArrayList<>(n);
    dirs.add(treeRoot);
    for (int i = 1; i < n; i++) {
      dirs.add(new Path(dirs.get(dirParent(i)), names.dirs()[i]));
    }
    List<Path> leaves = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if ((long) i * spec.subdirsPerDir() + 1 >= n) {
        leaves.add(dirs.get(i));
      }
    }
    List<Path> files = new ArrayList<>(n * spec.filesPerDir());
    for (int i = 0; i < names.files().length; i++) {
      files.add(new Path(dirs.get(i / spec.filesPerDir()), names.files()[i]));
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
