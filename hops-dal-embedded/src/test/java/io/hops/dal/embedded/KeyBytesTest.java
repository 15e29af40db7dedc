package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The row cache's keys: equal bytes are equal keys, and the keys of rows with nearby ids (which the
 * multiply-by-31 hash of a byte buffer maps onto each other) get distinct hashes.
 */
class KeyBytesTest {
  private static final StoredTable<InodeRow> INODES = StoredTable.of(InodeRow.TABLE);

  @Test
  void equalBytesAreEqualKeys() {
    byte[] a = INODES.rowKey(InodeRow.TABLE.key(7L, 7L, "x"));
    byte[] b = INODES.rowKey(InodeRow.TABLE.key(7L, 7L, "x"));
    assertThat(new KeyBytes(a)).isEqualTo(new KeyBytes(b)).hasSameHashCodeAs(new KeyBytes(b));
    assertThat(new KeyBytes(a))
        .isNotEqualTo(new KeyBytes(INODES.rowKey(InodeRow.TABLE.key(7L, 7L, "y"))));
    assertThat(new KeyBytes(a).compareTo(new KeyBytes(b))).isZero();
  }

  @Test
  void aKeyIsEncodedOnceAndOnlyForItsOwnTable() {
    io.hops.dal.schema.Key key = InodeRow.TABLE.key(7L, 7L, "x");
    KeyBytes first = INODES.rowKeyBytes(key);
    assertThat(first.bytes()).isEqualTo(INODES.rowKey(key));
    // Kept with the key: the same object again, no second encoding.
    assertThat(INODES.rowKeyBytes(key)).isSameAs(first);
    assertThat(key.encoded()).isSameAs(first);
    // An equal key built anew is encoded anew, to equal bytes.
    KeyBytes again = INODES.rowKeyBytes(InodeRow.TABLE.key(7L, 7L, "x"));
    assertThat(again).isNotSameAs(first).isEqualTo(first);

    // A key handed to another table's layout is encoded there, and nothing is kept on it.
    io.hops.dal.schema.Key other = InodeRow.TABLE.key(8L, 8L, "y");
    StoredTable<BlockInfoRow> blocks = StoredTable.of(BlockInfoRow.TABLE);
    assertThat(blocks.rowKeyBytes(other).bytes()).isEqualTo(blocks.rowKey(other));
    assertThat(other.encoded()).isNull();
  }

  @Test
  void keysOfNearbyIdsSpread() {
    int n = 100_000;
    Set<Integer> hashes = new HashSet<>();
    Set<Integer> bufferHashes = new HashSet<>();
    for (long id = 1; id <= n; id++) {
      byte[] key = INODES.rowKey(InodeRow.TABLE.key(id, id, "part-0"));
      hashes.add(new KeyBytes(key).hashCode());
      bufferHashes.add(java.nio.ByteBuffer.wrap(key).hashCode());
    }
    // A byte buffer's hash gives the keys of ids 225 apart the same value.
    assertThat(bufferHashes.size()).isLessThan(n * 9 / 10);
    assertThat(hashes.size()).isGreaterThan(n - 10);
  }
}
