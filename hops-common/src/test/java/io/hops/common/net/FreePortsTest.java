package io.hops.common.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FreePortsTest {
  @Test
  void picksBindablePortsOutsideTheEphemeralRange() throws Exception {
    Path file = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    assumeTrue(Files.isReadable(file), "no Linux ephemeral range to stay out of");
    // readString reads one byte of a procfs file, whose size shows as 0.
    String[] range = Files.readAllLines(file).get(0).trim().split("\\s+");
    int low = Integer.parseInt(range[0]);
    int high = Integer.parseInt(range[1]);
    assumeTrue(low > 11_000 || high < 64_535, "the whole usable range is ephemeral here");
    for (int i = 0; i < 50; i++) {
      int port = FreePorts.pick();
      assertThat(port < low || port > high)
          .as("port %d outside the ephemeral range %d-%d", port, low, high)
          .isTrue();
      try (ServerSocket s = new ServerSocket(port)) {
        assertThat(s.getLocalPort()).isEqualTo(port);
      }
    }
  }
}
