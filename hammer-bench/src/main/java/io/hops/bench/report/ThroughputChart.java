package io.hops.bench.report;

import io.hops.bench.workload.Op;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.imageio.ImageIO;

/**
 * {@code throughput.png}: ops/s per operation, one bar per system side by side, on a log scale (a
 * mix's operations differ by four orders of magnitude). One panel for the MIXED phase, one for the
 * RAW phases. Drawn with Java2D, headless.
 */
public final class ThroughputChart {
  private static final Color[] COLORS = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd)
  };
  private static final int WIDTH = 1400;
  private static final int PANEL_HEIGHT = 450;
  private static final int LEFT = 90;
  private static final int RIGHT = 60;
  private static final int TOP = 74;
  private static final int BOTTOM = 120;

  private ThroughputChart() {}

  private record Panel(String title, List<String> groups, List<double[]> values) {}

  public static void write(BenchReport report, Path png) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<Panel> panels = panels(report);
    int height = Math.max(1, panels.size()) * PANEL_HEIGHT;
    BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, height);
      List<String> systems = report.systems().stream().map(SystemRun::system).toList();
      for (int i = 0; i < panels.size(); i++) {
        drawPanel(g, panels.get(i), systems, i * PANEL_HEIGHT);
      }
      if (panels.isEmpty()) {
        g.setColor(Color.BLACK);
        g.drawString("no phase was measured", LEFT, TOP);
      }
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", png.toFile());
  }

  private static List<Panel> panels(BenchReport report) {
    List<SystemRun> systems = report.systems();
    List<Panel> panels = new ArrayList<>();
    if (report.mix() != null) {
      List<String> groups = new ArrayList<>();
      groups.add("all");
      report.mix().ops().forEach(op -> groups.add(op.key()));
      List<double[]> values = new ArrayList<>();
      for (SystemRun s : systems) {
        MeasuredPhase p = s.phase(BenchReport.MIX_PHASE);
        double[] v = new double[groups.size()];
        if (p != null) {
          v[0] = p.totalOpsPerSec();
          for (int i = 1; i < groups.size(); i++) {
            v[i] = p.opsPerSec(Op.byKey(groups.get(i)));
          }
        }
        values.add(v);
      }
      panels.add(
          new Panel(
              "MIXED " + report.mix().name() + ": ops/s per operation within the mix (log scale)",
              groups,
              values));
    }
    Set<Op> raw = new LinkedHashSet<>();
    for (SystemRun s : systems) {
      s.phases().stream()
          .filter(p -> p.phase().workload().isRaw())
          .forEach(p -> raw.add(p.phase().workload().rawOp()));
    }
    if (!raw.isEmpty()) {
      List<String> groups = raw.stream().map(Op::key).toList();
      List<double[]> values = new ArrayList<>();
      for (SystemRun s : systems) {
        double[] v = new double[groups.size()];
        int i = 0;
        for (Op op : raw) {
          MeasuredPhase p = s.rawPhase(op);
          v[i++] = p == null ? 0 : p.opsPerSec(op);
        }
        values.add(v);
      }
      panels.add(new Panel("RAW, one operation at a time: ops/s (log scale)", groups, values));
    }
    return panels;
  }

  private static void drawPanel(Graphics2D g, Panel panel, List<String> systems, int y0) {
    int plotTop = y0 + TOP;
    int plotBottom = y0 + PANEL_HEIGHT - BOTTOM;
    int plotWidth = WIDTH - LEFT - RIGHT;
    double max = 1;
    double min = Double.MAX_VALUE;
    for (double[] v : panel.values()) {
      for (double x : v) {
        if (x > 0) {
          max = Math.max(max, x);
          min = Math.min(min, x);
        }
      }
    }
    int lo = min == Double.MAX_VALUE ? 0 : (int) Math.floor(Math.log10(Math.max(min, 0.1)));
    int hi = Math.max(lo + 1, (int) Math.ceil(Math.log10(max)));
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.setColor(Color.BLACK);
    g.drawString(panel.title(), LEFT, y0 + 30);

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (int e = lo; e <= hi; e++) {
      int y = yOf(Math.pow(10, e), lo, hi, plotTop, plotBottom);
      g.setColor(new Color(0xdddddd));
      g.drawLine(LEFT, y, LEFT + plotWidth, y);
      g.setColor(Color.DARK_GRAY);
      String label = compact(Math.pow(10, e));
      g.drawString(label, LEFT - 8 - g.getFontMetrics().stringWidth(label), y + 4);
    }
    g.setColor(Color.BLACK);
    g.drawLine(LEFT, plotTop, LEFT, plotBottom);
    g.drawLine(LEFT, plotBottom, LEFT + plotWidth, plotBottom);
    AffineTransform straight = g.getTransform();
    g.rotate(-Math.PI / 2);
    g.drawString("ops/s", -(plotTop + plotBottom) / 2 - 15, LEFT - 55);
    g.setTransform(straight);

    int groups = panel.groups().size();
    double groupWidth = (double) plotWidth / groups;
    double barWidth = groupWidth * 0.8 / Math.max(1, systems.size());
    Font small = new Font(Font.SANS_SERIF, Font.PLAIN, 10);
    for (int gi = 0; gi < groups; gi++) {
      double gx = LEFT + gi * groupWidth + groupWidth * 0.1;
      for (int si = 0; si < systems.size(); si++) {
        double v = panel.values().get(si)[gi];
        int x = (int) Math.round(gx + si * barWidth);
        int w = (int) Math.max(1, Math.round(barWidth) - 2);
        g.setFont(small);
        if (v > 0) {
          int y = yOf(v, lo, hi, plotTop, plotBottom);
          g.setColor(COLORS[si % COLORS.length]);
          g.fillRect(x, y, w, plotBottom - y);
          g.setColor(Color.BLACK);
          centered(g, compact(v), x + w / 2, y - 3);
        } else {
          g.setColor(Color.GRAY);
          centered(g, "0", x + w / 2, plotBottom - 3);
        }
      }
      if (systems.size() == 2) {
        double a = panel.values().get(0)[gi];
        double b = panel.values().get(1)[gi];
        if (a > 0 && b > 0) {
          g.setColor(Color.DARK_GRAY);
          g.setFont(small);
          centered(
              g,
              String.format(Locale.ROOT, "%.2fx", a / b),
              (int) (LEFT + gi * groupWidth + groupWidth / 2),
              plotTop - 6);
        }
      }
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      AffineTransform t = g.getTransform();
      g.translate(LEFT + gi * groupWidth + groupWidth / 2, plotBottom + 12);
      g.rotate(Math.PI / 6);
      g.drawString(panel.groups().get(gi), 0, 0);
      g.setTransform(t);
    }
    drawLegend(g, systems, y0);
  }

  private static void drawLegend(Graphics2D g, List<String> systems, int y0) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    FontMetrics fm = g.getFontMetrics();
    int x = WIDTH - RIGHT;
    for (int i = systems.size() - 1; i >= 0; i--) {
      String label = systems.get(i);
      x -= fm.stringWidth(label) + 8;
      g.setColor(Color.BLACK);
      g.drawString(label, x + 18, y0 + 30);
      g.setColor(COLORS[i % COLORS.length]);
      g.fillRect(x, y0 + 19, 14, 14);
      x -= 22;
    }
    if (systems.size() == 2) {
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      String note = "numbers above groups: " + systems.get(0) + "/" + systems.get(1);
      g.drawString(note, WIDTH - RIGHT - fm.stringWidth(note), y0 + 48);
    }
    g.setStroke(new BasicStroke(1));
  }

  private static int yOf(double v, int lo, int hi, int top, int bottom) {
    double f = (Math.log10(Math.max(v, Math.pow(10, lo))) - lo) / (hi - lo);
    return (int) Math.round(bottom - f * (bottom - top));
  }

  private static void centered(Graphics2D g, String s, int x, int y) {
    g.drawString(s, x - g.getFontMetrics().stringWidth(s) / 2, y);
  }

  /** 1234 as {@code 1.2k}, 0.5 as {@code 0.5}. */
  static String compact(double v) {
    if (v >= 1_000_000) {
      return String.format(Locale.ROOT, "%.1fM", v / 1_000_000);
    }
    if (v >= 10_000) {
      return String.format(Locale.ROOT, "%.0fk", v / 1000);
    }
    if (v >= 1000) {
      return String.format(Locale.ROOT, "%.1fk", v / 1000);
    }
    if (v >= 10) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
