package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The selection policies, the dead-namenode TTL and the membership text, without namenodes. */
class NamenodeSelectionTest {
  private static final List<InetSocketAddress> THREE =
      List.of(
          new InetSocketAddress(InetAddress.getLoopbackAddress(), 1001),
          new InetSocketAddress(InetAddress.getLoopbackAddress(), 1002),
          new InetSocketAddress(InetAddress.getLoopbackAddress(), 1003));

  @Test
  void roundRobinTakesEachInTurn() {
    NamenodeSelection.Picker p = NamenodeSelection.ROUND_ROBIN.newPicker();
    Map<InetSocketAddress, Integer> calls = new HashMap<>();
    for (int i = 0; i < 300; i++) {
      calls.merge(p.pick(THREE), 1, Integer::sum);
    }
    assertThat(calls).containsOnlyKeys(THREE).allSatisfy((nn, n) -> assertThat(n).isEqualTo(100));
  }

  @Test
  void stickyKeepsItsChoiceUntilItIsNoLongerACandidate() {
    NamenodeSelection.Picker p = NamenodeSelection.STICKY.newPicker();
    InetSocketAddress first = p.pick(THREE);
    for (int i = 0; i < 100; i++) {
      assertThat(p.pick(THREE)).isEqualTo(first);
    }
    List<InetSocketAddress> others = THREE.stream().filter(a -> !a.equals(first)).toList();
    InetSocketAddress second = p.pick(others);
    assertThat(second).isNotEqualTo(first);
    assertThat(p.pick(THREE)).isEqualTo(second);
  }

  @Test
  void randomReachesEveryNamenode() {
    NamenodeSelection.Picker p = NamenodeSelection.RANDOM.newPicker();
    Set<InetSocketAddress> seen = new HashSet<>();
    for (int i = 0; i < 300; i++) {
      seen.add(p.pick(THREE));
    }
    assertThat(seen).containsExactlyInAnyOrderElementsOf(THREE);
  }

  @Test
  void parsesTheConfiguredNames() {
    assertThat(NamenodeSelection.parse("Round-Robin")).isEqualTo(NamenodeSelection.ROUND_ROBIN);
    assertThat(NamenodeSelection.parse("sticky")).isEqualTo(NamenodeSelection.STICKY);
    assertThatThrownBy(() -> NamenodeSelection.parse("fastest"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDeadNamenodeIsSkippedUntilItsTtlEndsAndAllDeadMeansTryAll() {
    AtomicLong now = new AtomicLong();
    LiveNamenodes live = new LiveNamenodes(THREE, 1000, now::get);
    live.markDead(THREE.get(0));
    assertThat(live.candidates()).containsExactly(THREE.get(1), THREE.get(2));
    now.addAndGet(1000);
    assertThat(live.candidates()).isEqualTo(THREE);
    THREE.forEach(live::markDead);
    assertThat(live.candidates()).isEqualTo(THREE);
  }

  @Test
  void anEmptyMembershipKeepsTheOldList() {
    LiveNamenodes live = new LiveNamenodes(THREE, 1000, System::nanoTime);
    live.replace(List.of());
    assertThat(live.known()).isEqualTo(THREE);
    live.replace(THREE.subList(0, 1));
    assertThat(live.known()).containsExactly(THREE.get(0));
  }

  @Test
  void readsTheRpcAddressesOfTheMembershipText() throws IOException {
    String text =
        "epoch 7 leader 3\n"
            + "3\thost-a\t127.0.0.1:1001\t127.0.0.1:9870\t1732381234000\tleader\n"
            + "5\thost-b\t127.0.0.1:1002\t127.0.0.1:9871\t1732381299000\t-\n";
    assertThat(MembershipClient.rpcAddresses(text)).containsExactly(THREE.get(0), THREE.get(1));
    assertThatThrownBy(() -> MembershipClient.rpcAddresses("hello"))
        .isInstanceOf(IOException.class);
  }
}
