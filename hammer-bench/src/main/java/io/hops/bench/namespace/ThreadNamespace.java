package io.hops.bench.namespace;

import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * One client thread's part of the namespace: its own tree, so that renames and deletes of different
 * threads never collide.
 *
 * @param root the thread's directory; it holds the spine, if any, and the tree below it
 * @param dirs the tree's directories, breadth first (parents before children)
 * @param leafDirs the directories without subdirectories ({@code mkdirs} of these builds the tree)
 * @param files the files, {@code filesPerDir} in each of {@link #dirs}
 */
public record ThreadNamespace(Path root, List<Path> dirs, List<Path> leafDirs, List<Path> files) {}
