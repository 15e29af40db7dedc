package io.hops.namenode.rpc;

import io.hops.namenode.security.LongNames;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stage of {@link ClientProtocolChain}: an error whose message names a client by the digest key a
 * name too long to be a key is stored under ({@link LongNames}) reaches the client with the name
 * itself, as HDFS's message would read. Other errors pass untouched.
 */
public final class NamesInMessages {
  private static final Pattern KEY =
      Pattern.compile(Pattern.quote("\u0000sha256:") + "[0-9a-f]{64}");

  private NamesInMessages() {}

  public static CallStage stage(LongNames names) {
    return (method, args, next) -> {
      try {
        return next.invoke(method, args);
      } catch (IOException e) {
        String message = e.getMessage();
        if (message == null || message.indexOf('\u0000') < 0) {
          throw e;
        }
        throw withNames(e, message, args, names);
      }
    };
  }

  /**
   * The message with each key replaced by its name: the caller's own names are among the call's
   * arguments (a client name that was never stored has no text in the database); others are read.
   */
  private static IOException withNames(
      IOException e, String message, Object[] args, LongNames names) {
    Map<String, String> own = new HashMap<>();
    for (Object arg : args == null ? new Object[0] : args) {
      if (arg instanceof String s && LongNames.isDigest(LongNames.key(s))) {
        own.put(LongNames.key(s), s);
      }
    }
    StringBuilder text = new StringBuilder();
    Matcher m = KEY.matcher(message);
    try {
      while (m.find()) {
        String name = own.get(m.group());
        m.appendReplacement(
            text, Matcher.quoteReplacement(name != null ? name : names.name(m.group())));
      }
    } catch (IOException unreadable) {
      return e;
    }
    m.appendTail(text);
    try {
      IOException named = e.getClass().getConstructor(String.class).newInstance(text.toString());
      named.initCause(e.getCause());
      return named;
    } catch (ReflectiveOperationException | IllegalStateException noSuchConstructor) {
      return e;
    }
  }
}
