package io.hops.namenode.rpc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * The client protocols as a namenode serves them ({@code ClientProtocol} and hops's small-files
 * protocol, behind the same stages): {@link CallStage}s, outermost first, in front of the
 * operations, in one proxy. A proxy per stage cost each RPC a proxy dispatch, an argument array and
 * a {@code Method.invoke} (with its caller-sensitive access check) per stage; here the stages are
 * plain calls and the operation is reached through a method handle bound once per method.
 */
public final class ClientProtocolChain {
  private static final MethodType SPREAD = MethodType.methodType(Object.class, Object[].class);

  private final Object target;
  private final CallStage[] stages;
  private final CallStage.Next[] nexts;
  private final ConcurrentHashMap<Method, MethodHandle> handles = new ConcurrentHashMap<>();

  private ClientProtocolChain(Object target, CallStage[] stages) {
    this.target = target;
    this.stages = stages.clone();
    this.nexts = new CallStage.Next[stages.length + 1];
    for (int i = 0; i < stages.length; i++) {
      int stage = i;
      nexts[i] = (m, a) -> this.stages[stage].invoke(m, a, nexts[stage + 1]);
    }
    nexts[stages.length] = this::call;
  }

  /** {@code target} behind {@code stages}; the first stage sees a call first. */
  public static ClientProtocol of(ClientProtocol target, CallStage... stages) {
    return of(ClientProtocol.class, target, stages);
  }

  /** {@code target}, served as {@code protocol}, behind {@code stages}. */
  public static <T> T of(Class<T> protocol, T target, CallStage... stages) {
    ClientProtocolChain chain = new ClientProtocolChain(target, stages);
    return protocol.cast(
        Proxy.newProxyInstance(
            protocol.getClassLoader(),
            new Class<?>[] {protocol},
            (proxy, method, args) ->
                method.getDeclaringClass() == Object.class
                    ? chain.call(method, args)
                    : chain.nexts[0].invoke(method, args)));
  }

  private Object call(Method method, Object[] args) throws Throwable {
    MethodHandle h = handles.get(method);
    if (h == null) {
      h = handles.computeIfAbsent(method, this::bind);
    }
    return h.invokeExact(args == null ? NO_ARGS : args);
  }

  private static final Object[] NO_ARGS = new Object[0];

  private MethodHandle bind(Method method) {
    try {
      return MethodHandles.publicLookup()
          .unreflect(method)
          .bindTo(target)
          .asSpreader(Object[].class, method.getParameterCount())
          .asType(SPREAD);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call " + method, e);
    }
  }
}
