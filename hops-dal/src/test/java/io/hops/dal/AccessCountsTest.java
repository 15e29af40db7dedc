package io.hops.dal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AccessCountsTest {

  private static AccessCounts counts(Object... kindModeTimes) {
    AccessCounter c = new AccessCounter();
    for (int i = 0; i < kindModeTimes.length; i += 3) {
      for (int n = 0; n < (Integer) kindModeTimes[i + 2]; n++) {
        c.count((AccessKind) kindModeTimes[i], (LockMode) kindModeTimes[i + 1]);
      }
    }
    return c.snapshot();
  }

  @Test
  void readsLikeTheDesignsCostTable() {
    assertThat(
            counts(
                AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE, 1,
                AccessKind.PK, LockMode.SHARED, 1,
                AccessKind.BATCH, LockMode.READ_COMMITTED, 1))
        .hasToString("PK(SHARED) + B + W");
    assertThat(
            counts(
                AccessKind.BATCH, LockMode.READ_COMMITTED, 1,
                AccessKind.PK, LockMode.EXCLUSIVE, 2,
                AccessKind.PPIS, LockMode.SHARED, 3,
                AccessKind.IS, LockMode.READ_COMMITTED, 1,
                AccessKind.FTS, LockMode.READ_COMMITTED, 1))
        .hasToString("PK(EXCLUSIVE) x2 + B + PPIS(SHARED) x3 + IS + FTS");
    assertThat(AccessCounts.NONE).hasToString("none");
  }

  @Test
  void countsByKindAndByMode() {
    AccessCounts c =
        counts(
            AccessKind.PK, LockMode.SHARED, 2,
            AccessKind.PK, LockMode.EXCLUSIVE, 1,
            AccessKind.BATCH, LockMode.READ_COMMITTED, 4);
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
    assertThat(delta).isEqualTo(counts(AccessKind.PK, LockMode.SHARED, 1, AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE, 1));
    assertThat(delta).hasSameHashCodeAs(counts(AccessKind.PK, LockMode.SHARED, 1, AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE, 1));
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
