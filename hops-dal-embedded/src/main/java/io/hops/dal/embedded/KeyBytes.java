package io.hops.dal.embedded;

import java.util.Arrays;

/**
 * A row key as a hash-map key of the {@link RowCache}: its hash is computed once (a {@link
 * java.nio.ByteBuffer} recomputes it on every lookup) and spreads keys of nearby ids, which the
 * multiply-by-31 hash of a byte buffer often gives the same value (ids 225 apart whose last two
 * bytes differ by 1 and -31).
 */
final class KeyBytes implements Comparable<KeyBytes> {
  private final byte[] bytes;
  private final int hash;

  KeyBytes(byte[] bytes) {
    this.bytes = bytes;
    long h = bytes.length;
    for (byte b : bytes) {
      h = (h + (b & 0xff)) * 0x9E3779B97F4A7C15L;
    }
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    this.hash = (int) (h ^ (h >>> 32));
  }

  byte[] bytes() {
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyBytes k && k.hash == hash && Arrays.equals(k.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public int compareTo(KeyBytes o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }
}
