package io.hops.bench.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes maps, lists, strings, numbers, booleans and nulls as indented JSON. */
public final class Json {
  private Json() {}

  public static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value, 0);
    return b.append('\n').toString();
  }

  private static void write(StringBuilder b, Object v, int indent) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Map<?, ?> m) {
      writeEntries(b, m.entrySet().iterator(), indent, '{', '}', true);
    } else if (v instanceof List<?> l) {
      writeEntries(b, l.iterator(), indent, '[', ']', false);
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        b.append("null");
      } else {
        b.append(number(d));
      }
    } else if (v instanceof Number || v instanceof Boolean) {
      b.append(v);
    } else {
      string(b, v.toString());
    }
  }

  /** Four significant digits, at most one decimal from 1,000 on; never an exponent. */
  static String number(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return String.valueOf((long) d);
    }
    BigDecimal v =
        Math.abs(d) >= 1000
            ? BigDecimal.valueOf(d).setScale(1, RoundingMode.HALF_UP)
            : BigDecimal.valueOf(d).round(new MathContext(4));
    return v.stripTrailingZeros().toPlainString();
  }

  private static void writeEntries(
      StringBuilder b, Iterator<?> it, int indent, char open, char close, boolean map) {
    if (!it.hasNext()) {
      b.append(open).append(close);
      return;
    }
    b.append(open).append('\n');
    while (it.hasNext()) {
      Object e = it.next();
      b.append("  ".repeat(indent + 1));
      if (map) {
        Map.Entry<?, ?> kv = (Map.Entry<?, ?>) e;
        string(b, String.valueOf(kv.getKey()));
        b.append(": ");
        write(b, kv.getValue(), indent + 1);
      } else {
        write(b, e, indent + 1);
      }
      b.append(it.hasNext() ? ",\n" : "\n");
    }
    b.append("  ".repeat(indent)).append(close);
  }

  private static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
