package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.smallfiles.SmallFilesProtocol;
import io.hops.namenode.rpc.ClientCalls.Call;
import io.hops.namenode.rpc.ClientCalls.Kind;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.namenode.ha.ReadOnly;
import org.apache.hadoop.io.retry.AtMostOnce;
import org.junit.jupiter.api.Test;

/**
 * The table of client calls against Hadoop's own annotations of {@code ClientProtocol}, so that a
 * call is never left out of safe mode, the audit log or the retry cache by forgetting a list: every
 * call is either {@code @ReadOnly} in HDFS or named in {@link ClientCalls}, the two never disagree,
 * and every {@code @AtMostOnce} call hops serves keeps its outcome.
 */
class ClientCallsTest {
  private static final Map<String, Method> PROTOCOL =
      Arrays.stream(ClientProtocol.class.getMethods())
          .collect(Collectors.toMap(Method::getName, m -> m, (a, b) -> a));

  /** Calls ClientRpc declares only to refuse them as HDFS does with the feature off. */
  private static final Set<String> ALWAYS_REFUSED = Set.of("satisfyStoragePolicy");

  @Test
  void everyCallThatIsNotReadOnlyIsAWriteOrAControlCall() {
    List<String> missing = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    for (Method m : PROTOCOL.values()) {
      Call call = ClientCalls.of(m.getName());
      boolean readOnly = m.isAnnotationPresent(ReadOnly.class);
      if (!readOnly && call == null) {
        missing.add(m.getName());
      } else if (call != null && readOnly != (call.kind() == Kind.READ)) {
        wrong.add(m.getName() + " is " + call.kind() + ", @ReadOnly=" + readOnly);
      }
    }
    assertThat(missing).as("ClientProtocol calls neither @ReadOnly nor in ClientCalls").isEmpty();
    assertThat(wrong).as("ClientCalls against HDFS's @ReadOnly").isEmpty();
  }

  @Test
  void everyRowNamesACallOfAClientProtocol() {
    Set<String> small =
        Arrays.stream(SmallFilesProtocol.class.getMethods())
            .map(Method::getName)
            .collect(Collectors.toSet());
    assertThat(ClientCalls.all())
        .allSatisfy(
            c ->
                assertThat(PROTOCOL.containsKey(c.method()) || small.contains(c.method()))
                    .as(c.method())
                    .isTrue());
  }

  @Test
  void writesAndOnlyWritesHaveASafeModeRefusal() {
    assertThat(ClientCalls.all())
        .allSatisfy(
            c ->
                assertThat(c.safeModeRefusal() != null)
                    .as(c.method())
                    .isEqualTo(c.kind() == Kind.WRITE));
  }

  @Test
  void everyAtMostOnceCallHopsServesKeepsItsOutcomeAndNoOtherDoes() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (Method m : PROTOCOL.values()) {
      Call call = ClientCalls.of(m.getName());
      boolean kept = call != null && call.retry() != null;
      boolean atMostOnce = m.isAnnotationPresent(AtMostOnce.class);
      // a refused call (answered by UnsupportedClientProtocol, FeaturesOff or always refused by
      // ClientRpc itself) changes nothing
      Class<?> server =
          ClientRpc.class.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass();
      boolean served =
          server != UnsupportedClientProtocol.class
              && server != FeaturesOff.class
              && !ALWAYS_REFUSED.contains(m.getName());
      if (kept != (atMostOnce && served)) {
        wrong.add(
            m.getName() + ": kept=" + kept + " @AtMostOnce=" + atMostOnce + " served=" + served);
      }
    }
    assertThat(wrong).isEmpty();
    // the small-files protocol's writes change the namespace once, as create and append do
    assertThat(ClientCalls.of("createSmallFile").retry()).isSameAs(RetryCodecs.CREATE);
    assertThat(ClientCalls.of("appendSmallFile").retry()).isSameAs(RetryCodecs.BOOLEAN);
  }

  @Test
  void callSitesTakeTheirCodecFromTheTableAndOnlyForKeptCalls() {
    assertThat(ClientCalls.<Boolean>keptWith("delete")).isSameAs(RetryCodecs.BOOLEAN);
    assertThat(ClientCalls.<Object>keptWith("create")).isSameAs(ClientCalls.of("create").retry());
    assertThatThrownBy(() -> ClientCalls.keptWith("mkdirs"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("mkdirs keeps no outcome in the retry cache");
    assertThatThrownBy(() -> ClientCalls.keptWith("getFileInfo"))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void safeModeRefusalsAreHdfsMessages() {
    Function<String, String> refusal =
        name -> ClientCalls.of(name).safeModeRefusal().apply(new Object[] {"/a", "/b", "blk"});
    assertThat(refusal.apply("create")).isEqualTo("Cannot create file/a");
    assertThat(refusal.apply("createSymlink")).isEqualTo("Cannot create symlink /b");
    assertThat(refusal.apply("abandonBlock")).isEqualTo("Cannot abandon block /a for fileblk");
    assertThat(ClientCalls.of("listCorruptFileBlocks").audit().deniedOnly()).isTrue();
  }
}
