package io.hops.bench.workload;

import java.util.Map;
import java.util.SplittableRandom;

/**
 * Draws operations in the proportions of a {@link Mix}, one sampler per client thread.
 *
 * <p>It deals from a shuffled deck in which every operation has exactly its share of the cards
 * (10,000 cards for percentages with two decimals; reshuffled when used up). The order is random,
 * but every full deck holds the mix exactly, so a short run or a rare operation (0.01% is one card
 * in 10,000) still gets its share, which independent draws would only approach.
 */
public final class MixSampler {
  /** Cards per percent at most: shares are exact to four decimals of a percent. */
  private static final int MAX_CARDS_PER_PERCENT = 10_000;

  private final Op[] deck;
  private final SplittableRandom random;
  private int next;

  public MixSampler(Mix mix, long seed) {
    this.random = new SplittableRandom(seed);
    double total = mix.percents().values().stream().mapToDouble(Double::doubleValue).sum();
    int perPercent = cardsPerPercent(mix, total);
    int[] counts = new int[Op.values().length];
    int size = 0;
    for (Map.Entry<Op, Double> e : mix.percents().entrySet()) {
      int n = (int) Math.round(e.getValue() * 100.0 / total * perPercent);
      counts[e.getKey().ordinal()] = n;
      size += n;
    }
    this.deck = new Op[size];
    int i = 0;
    for (Op op : Op.values()) {
      for (int c = 0; c < counts[op.ordinal()]; c++) {
        deck[i++] = op;
      }
    }
    shuffle();
  }

  /** The smallest power of ten that makes every normalized share a whole number of cards. */
  private static int cardsPerPercent(Mix mix, double total) {
    for (int perPercent = 1; perPercent < MAX_CARDS_PER_PERCENT; perPercent *= 10) {
      boolean whole = true;
      for (double v : mix.percents().values()) {
        double cards = v * 100.0 / total * perPercent;
        if (Math.abs(cards - Math.rint(cards)) > 1e-6) {
          whole = false;
          break;
        }
      }
      if (whole) {
        return perPercent;
      }
    }
    return MAX_CARDS_PER_PERCENT;
  }

  public Op next() {
    if (next == deck.length) {
      shuffle();
    }
    return deck[next++];
  }

  /** Cards in one deck: after this many draws the mix has been dealt exactly. */
  public int deckSize() {
    return deck.length;
  }

  private void shuffle() {
    for (int i = deck.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      Op t = deck[i];
      deck[i] = deck[j];
      deck[j] = t;
    }
    next = 0;
  }
}
