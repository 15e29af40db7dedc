package io.hops.namenode.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The hints keep a directory's row key, built once, so that every resolution through it reuses the
 * key (and the encoding a driver keeps on it); a file's hint keeps none.
 */
class InodeHintCacheTest {
  @Test
  void aDirectoryHintKeepsItsKeyAndAFileHintNone() {
    InodeHintCache hints = new InodeHintCache(100);
    hints.put(5, "dir", 10, true);
    hints.put(5, "file", 11, false);

    InodeHintCache.Hint dir = hints.hint(5, "dir");
    assertThat(dir.id()).isEqualTo(10);
    assertThat(dir.key()).isEqualTo(Inodes.key(5, "dir"));
    assertThat(hints.hint(5, "dir").key()).isSameAs(dir.key());
    assertThat(hints.hint(5, "file").key()).isNull();
    assertThat(hints.get(5, "file")).isEqualTo(11);
    assertThat(hints.hint(5, "none")).isNull();
  }

  @Test
  void aDirectoryHintPutWithoutItsKeyGainsItOnTheNextPutAsADirectory() {
    InodeHintCache hints = new InodeHintCache(100);
    // A new directory's hint is put after its commit, knowing only its id.
    hints.put(1, "new", 20);
    assertThat(hints.hint(1, "new").key()).isNull();
    hints.put(1, "new", 20, true);
    assertThat(hints.hint(1, "new").key()).isEqualTo(Inodes.key(1, "new"));
    // A later put without the flag keeps what is known.
    InodeHintCache.Hint kept = hints.hint(1, "new");
    hints.put(1, "new", 20);
    assertThat(hints.hint(1, "new")).isSameAs(kept);
  }

  @Test
  void anInodeHasOneHintFoundByNameAndById() {
    InodeHintCache hints = new InodeHintCache(100);
    hints.put(5, "dir", 10, true);

    InodeHintCache.Hint byName = hints.hint(5, "dir");
    assertThat(hints.placeOf(10)).isSameAs(byName);
    assertThat(byName.parentId()).isEqualTo(5);
    assertThat(byName.name()).isEqualTo("dir");
    // Confirming a hint writes nothing.
    hints.put(5, "dir", 10, true);
    hints.confirmed(5, "dir", 10);
    assertThat(hints.hint(5, "dir")).isSameAs(byName);

    // Moved: the new name finds it, and so does its id; the old name is forgotten.
    hints.remove(5, "dir");
    hints.put(6, "moved", 10, true);
    assertThat(hints.hint(5, "dir")).isNull();
    assertThat(hints.placeOf(10)).isSameAs(hints.hint(6, "moved"));
    assertThat(hints.placeOf(10).parentId()).isEqualTo(6);
    // A repaired way back: the id was last seen elsewhere.
    hints.confirmed(7, "again", 10);
    assertThat(hints.placeOf(10).name()).isEqualTo("again");
    assertThat(hints.get(7, "again")).isEqualTo(10);
  }

  @Test
  void aRemovedHintIsGoneByIdTooSoCreatesAndDeletesNeverFillTheCache() {
    InodeHintCache hints = new InodeHintCache(100);
    hints.put(1, "hot", 10, true);
    for (long id = 1_000; id < 1_500; id++) {
      hints.put(10, "file-" + id, id);
      hints.remove(10, "file-" + id);
      assertThat(hints.placeOf(id)).isNull();
    }
    // Never full: the directory's hint is still there, found by name and by id.
    assertThat(hints.get(1, "hot")).isEqualTo(10);
    assertThat(hints.placeOf(10)).isSameAs(hints.hint(1, "hot"));
    assertThat(hints.bytes()).isEqualTo(InodeHintCache.hintBytes("hot", true));
  }

  @Test
  void removingAMovedInodesOldNameKeepsItsNewPlace() {
    InodeHintCache hints = new InodeHintCache(100);
    hints.put(5, "old", 10);
    hints.put(6, "new", 10); // seen at its new name before the old one was removed
    hints.remove(5, "old");
    assertThat(hints.placeOf(10)).isSameAs(hints.hint(6, "new"));
  }
}
