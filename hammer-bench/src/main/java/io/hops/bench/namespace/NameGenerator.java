package io.hops.bench.namespace;

import java.util.SplittableRandom;

/**
 * Names of {@code nameLength ± spread} characters. Each starts with a kind letter and a counter, so
 * names one generator hands out never collide; the rest is random lowercase letters and digits.
 */
public final class NameGenerator {
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

  private final SplittableRandom random;
  private final int nameLength;
  private final int spread;
  private long counter;

  public NameGenerator(NamespaceSpec spec, SplittableRandom random) {
    this.random = random;
    this.nameLength = spec.nameLength();
    this.spread = spec.nameLengthSpread();
  }

  /** A new name: {@code kind} is {@code d} (directory), {@code f} (file), ... */
  public String next(char kind) {
    StringBuilder b = new StringBuilder().append(kind).append(counter++).append('-');
    int length = nameLength - spread + random.nextInt(2 * spread + 1);
    while (b.length() < length) {
      b.append(ALPHABET[random.nextInt(ALPHABET.length)]);
    }
    return b.toString();
  }
}
