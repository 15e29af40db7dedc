package io.hops.namenode.rpc;

import java.lang.reflect.Method;

/**
 * One concern in front of every {@code ClientProtocol} call (reserved paths, safe mode, the audit
 * log, the activity counters). {@link ClientProtocolChain} runs the stages of a namenode in one
 * dispatch: one proxy and one reflective call per RPC, however many stages.
 */
@FunctionalInterface
public interface CallStage {
  /**
   * Handles {@code method} with {@code args}; {@code next} runs the rest of the chain and the
   * operation (with the same or other arguments), and throws what the operation threw.
   */
  Object invoke(Method method, Object[] args, Next next) throws Throwable;

  /** The rest of the chain, down to the operation. */
  @FunctionalInterface
  interface Next {
    Object invoke(Method method, Object[] args) throws Throwable;
  }
}
