package io.hops.namenode;

import com.tngtech.archunit.library.freeze.ViolationLineMatcher;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells ArchUnit's {@code FreezingArchRule} that two cycle reports are the same violation when they
 * pass through the same packages in the same order, whatever dependencies are listed under them and
 * wherever the report starts the cycle. Without it, any new import between two packages already in
 * a frozen cycle would count as a new violation, and the store would pin line-level details.
 * Configured in archunit.properties ({@code freeze.lineMatcher}).
 */
public final class SameSliceCycle implements ViolationLineMatcher {
  private static final Pattern SLICE = Pattern.compile("Slice (\\S+)");
  private static final String DETAILS = "\n  1. Dependencies of";

  @Override
  public boolean matches(String actual, String stored) {
    List<String> a = cycle(actual);
    List<String> s = cycle(stored);
    return a.isEmpty() || s.isEmpty() ? actual.equals(stored) : a.equals(s);
  }

  /** The cycle's slices, the repeated last one dropped, rotated to start at the smallest name. */
  static List<String> cycle(String violation) {
    if (!violation.startsWith("Cycle detected:")) {
      return List.of();
    }
    int end = violation.indexOf(DETAILS);
    Matcher m = SLICE.matcher(end < 0 ? violation : violation.substring(0, end));
    List<String> slices = new ArrayList<>();
    while (m.find()) {
      slices.add(m.group(1));
    }
    if (slices.size() < 2) {
      return List.of();
    }
    slices.remove(slices.size() - 1);
    Collections.rotate(slices, -slices.indexOf(Collections.min(slices)));
    return slices;
  }
}
