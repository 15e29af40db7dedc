package io.hops.namenode.resolve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.fs.InvalidPathException;
import org.junit.jupiter.api.Test;

/** Splitting client paths into components, as HDFS resolves a path to read or change. */
class PathNamesTest {
  @Test
  void emptyComponentsAreSkippedAndOthersTakenLiterally() {
    assertArrayEquals(new String[0], PathNames.components("/"));
    assertArrayEquals(new String[0], PathNames.components("///"));
    assertArrayEquals(new String[] {"a"}, PathNames.components("/a"));
    assertArrayEquals(new String[] {"a", "b"}, PathNames.components("/a/b/"));
    assertArrayEquals(new String[] {"a", "b"}, PathNames.components("//a//b"));
    assertArrayEquals(new String[] {"a", ".", "..", "c:d"}, PathNames.components("/a/./../c:d"));
    assertArrayEquals(new String[] {"é", " x "}, PathNames.components("/é/ x "));
  }

  @Test
  void aRelativePathIsRefused() {
    assertThrows(InvalidPathException.class, () -> PathNames.components("a/b"));
    assertThrows(InvalidPathException.class, () -> PathNames.components(""));
    assertThrows(InvalidPathException.class, () -> PathNames.components(null));
  }
}
