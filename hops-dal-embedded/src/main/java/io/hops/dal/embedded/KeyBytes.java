package io.hops.dal.embedded;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A row key as a hash-map key of the {@link RowCache}: its hash is computed once (a {@link
 * java.nio.ByteBuffer} recomputes it on every lookup) and spreads keys of nearby ids, which the
 * multiply-by-31 hash of a byte buffer often gives the same value (ids 225 apart whose last two
 * bytes differ by 1 and -31).
 */
final class KeyBytes implements Comparable<KeyBytes> {
  /** Eight bytes at a time. */
  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final byte[] bytes;
  private final int hash;

  KeyBytes(byte[] bytes) {
    this.bytes = bytes;
    // xxHash64's round per word (multiply, rotate, multiply): a rotation carries the top bits of
    // one word's difference down, so differences in two words cannot cancel.
    long h = bytes.length;
    int i = 0;
    for (; i + Long.BYTES <= bytes.length; i += Long.BYTES) {
      h =
          Long.rotateLeft(h + (long) WORDS.get(bytes, i) * 0xC2B2AE3D27D4EB4FL, 31)
              * 0x9E3779B97F4A7C15L;
    }
    for (; i < bytes.length; i++) {
      h = Long.rotateLeft(h + (bytes[i] & 0xff) * 0x27D4EB2F165667C5L, 11) * 0x9E3779B97F4A7C15L;
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
