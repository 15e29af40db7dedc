package io.hops.dal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AccessCountsTest {

  /** Counts built by hand. */
  private static final class Expected {
    private final AccessCounter counter = new AccessCounter();

    Expected add(AccessKind kind, LockMode mode, int times) {
      for (int i = 0; i < times; i++) {
        counter.count(kind, mode);
      }
      return this;
    }

    AccessCounts counts() {
      return counter.snapshot();
    }
  }

  private static Expected counts() {
    return new Expected();
  }

  @Test
  void readsLikeTheDesignsCostTable() {
    assertThat(
            counts()
                .add(AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE, 1)
                .add(AccessKind.PK, LockMode.SHARED, 1)
                .add(AccessKind.BATCH, LockMode.READ_COMMITTED, 1)
                .counts())
        .hasToString("PK(SHARED) + B + W");
    assertThat(
            counts()
                .add(AccessKind.BATCH, LockMode.READ_COMMITTED, 1)
                .add(AccessKind.PK, LockMode.EXCLUSIVE, 2)
                .add(AccessKind.PPIS, LockMode.SHARED, 3)
                .add(AccessKind.IS, LockMode.READ_COMMITTED, 1)
                .add(AccessKind.FTS, LockMode.READ_COMMITTED, 1)
                .counts())
        .hasToString("PK(EXCLUSIVE) x2 + B + PPIS(SHARED) x3 + IS + FTS");
    assertThat(AccessCounts.NONE).hasToString("none");
  }

  @Test
  void countsByKindAndByMode() {
    AccessCounts c =
        counts()
            .add(AccessKind.PK, LockMode.SHARED, 2)
            .add(AccessKind.PK, LockMode.EXCLUSIVE, 1)
            .add(AccessKind.BATCH, LockMode.READ_COMMITTED, 4)
            .counts();
    assertThat(c.get(AccessKind.PK)).isEqualTo(3);
    assertThat(c.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(2);
    assertThat(c.get(AccessKind.PK, LockMode.READ_COMMITTED)).isZero();
    assertThat(c.get(AccessKind.BATCH)).isEqualTo(4);
    assertThat(c.get(AccessKind.WRITE_BATCH)).isZero();
    assertThat(c.total()).isEqualTo(7);
  }

  @Test
  void minusGivesWhatHappenedInBetween() {
    AccessCounter c = new AccessCounter();
    c.count(AccessKind.PK, LockMode.SHARED);
    AccessCounts before = c.snapshot();
    c.count(AccessKind.PK, LockMode.SHARED);
    c.count(AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE);
    AccessCounts delta = c.snapshot().minus(before);
    assertThat(delta)
        .isEqualTo(
            counts()
                .add(AccessKind.PK, LockMode.SHARED, 1)
                .add(AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE, 1)
                .counts());
    assertThat(delta)
        .hasSameHashCodeAs(
            counts()
                .add(AccessKind.PK, LockMode.SHARED, 1)
                .add(AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE, 1)
                .counts());
    assertThat(before.minus(before)).isEqualTo(AccessCounts.NONE);
    assertThat(delta).isNotEqualTo(AccessCounts.NONE);
  }

  @Test
  void snapshotsDoNotChangeAfterwards() {
    AccessCounter c = new AccessCounter();
    AccessCounts empty = c.snapshot();
    c.count(AccessKind.FTS, LockMode.READ_COMMITTED);
    assertThat(empty).isEqualTo(AccessCounts.NONE);
  }

  @Test
  void aTransactionsCounterForwardsToTheStorageTotals() {
    AccessCounter totals = new AccessCounter();
    AccessCounter tx1 = new AccessCounter(totals);
    AccessCounter tx2 = new AccessCounter(totals);
    tx1.count(AccessKind.PK, LockMode.SHARED);
    tx2.count(AccessKind.IS, LockMode.READ_COMMITTED);
    assertThat(tx1.snapshot()).hasToString("PK(SHARED)");
    assertThat(tx2.snapshot()).hasToString("IS");
    assertThat(totals.snapshot()).hasToString("PK(SHARED) + IS");
  }

  @Test
  void labelsAreTheDesigns() {
    assertThat(AccessKind.values())
        .extracting(AccessKind::label)
        .containsExactly("PK", "B", "PPIS", "IS", "FTS", "W");
  }

  @Test
  void lockCompatibility() {
    assertThat(LockMode.SHARED.compatibleWith(LockMode.SHARED)).isTrue();
    assertThat(LockMode.SHARED.compatibleWith(LockMode.EXCLUSIVE)).isFalse();
    assertThat(LockMode.EXCLUSIVE.compatibleWith(LockMode.SHARED)).isFalse();
    assertThat(LockMode.EXCLUSIVE.compatibleWith(LockMode.EXCLUSIVE)).isFalse();
    for (LockMode m : LockMode.values()) {
      assertThat(LockMode.READ_COMMITTED.compatibleWith(m)).isTrue();
      assertThat(m.compatibleWith(LockMode.READ_COMMITTED)).isTrue();
    }
  }
}
