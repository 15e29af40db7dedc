package io.hops.common.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for a process about to be started on this host (bin/hops bench's clusters, tests' separate
 * processes), picked outside the kernel's range of ephemeral ports where it can: a port from that
 * range (what {@code new ServerSocket(0)} hands out) can be taken by any process's outgoing
 * connection (a namenode's to the database) between the pick and the bind, or between a process's
 * death and its restart on the same port, which failed CI runs with "Port in use" and "Address
 * already in use".
 */
public final class FreePorts {
  private static final int LOWEST = 10_000;
  private static final int HIGHEST = 65_535;
  private static final int ROOM = 1_000;

  private FreePorts() {}

  /** A port nobody listens on now on the loopback address, outside the ephemeral range if any. */
  public static int pick() throws IOException {
    int[] range = ephemeralRange();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 100; attempt++) {
      int port;
      if (range[0] - LOWEST > ROOM) {
        port = random.nextInt(LOWEST, range[0]);
      } else if (HIGHEST - range[1] > ROOM) {
        port = random.nextInt(range[1] + 1, HIGHEST + 1);
      } else {
        break; // the whole usable range is ephemeral
      }
      if (free(port)) {
        return port;
      }
    }
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static boolean free(int port) {
    try (ServerSocket s = new ServerSocket(port)) {
      return true;
    } catch (IOException inUse) {
      return false;
    }
  }

  /**
   * The kernel's ephemeral range (Linux), or one that leaves nothing outside it when unknown. Read
   * by lines: {@code Files.readString} reads a procfs file by its size, which shows as 0, and gets
   * one byte of it.
   */
  private static int[] ephemeralRange() {
    try {
      String[] range =
          Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
              .get(0)
              .trim()
              .split("\\s+");
      return new int[] {Integer.parseInt(range[0]), Integer.parseInt(range[1])};
    } catch (IOException | RuntimeException e) {
      return new int[] {0, HIGHEST};
    }
  }
}
