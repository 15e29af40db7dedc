package io.hops.namenode.audit;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.text.StringEscapeUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;
import org.apache.hadoop.ipc.CallerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS's audit log ({@code hdfs-audit.log}): one line per namespace operation, in the format of
 * Hadoop's {@code FSNamesystemAuditLogger}, on HDFS's logger {@value #LOGGER_NAME}, so that an
 * existing log configuration (HDFS's {@code hdfs.audit.logger}) routes it unchanged. Configured by
 * HDFS's keys: {@code dfs.namenode.audit.loggers} ({@code default} is this format; other entries
 * are {@link AuditLogger} classes), {@code dfs.namenode.audit.log.debug.cmdlist}, {@code
 * hadoop.caller.context.*} and {@code dfs.namenode.audit.log.token.tracking.id}.
 *
 * <p>Off the request's critical path: a handler only queues the event; one writer thread formats
 * and writes it. The queue is bounded and a full queue makes handlers wait, so no line is lost.
 */
public final class AuditLog implements AutoCloseable {
  /** HDFS's audit logger, {@code FSNamesystem.class.getName() + ".audit"}. */
  public static final String LOGGER_NAME =
      "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit";

  private static final Logger AUDIT = LoggerFactory.getLogger(LOGGER_NAME);
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
  private static final int QUEUE_CAPACITY = 64 * 1024;

  /** One audited call, as seen on the handler thread. */
  public record Event(
      boolean allowed,
      String ugi,
      InetAddress ip,
      String cmd,
      String src,
      String dst,
      FileStatus status,
      String proto,
      CallerContext callerContext) {}

  private final boolean defaultFormat;
  private final List<AuditLogger> others = new ArrayList<>();
  private final Set<String> debugCmds = new HashSet<>();
  private final boolean callerContextEnabled;
  private final int callerContextMaxLen;
  private final int callerSignatureMaxLen;
  private final boolean trackingId;
  private final BlockingQueue<Event> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  private final AtomicLong queued = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final Thread writer;
  private volatile boolean closed;
  private final java.io.Writer file;

  public AuditLog(Configuration conf) {
    boolean withDefault = false;
    for (String name :
        conf.getTrimmedStringCollection(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY)) {
      if (DFSConfigKeys.DFS_NAMENODE_DEFAULT_AUDIT_LOGGER_NAME.equals(name)) {
        withDefault = true;
      } else {
        others.add(newLogger(name, conf));
      }
    }
    // As HDFS: with no logger configured, the default one.
    this.defaultFormat = withDefault || others.isEmpty();
    this.callerContextEnabled =
        conf.getBoolean(
            CommonConfigurationKeysPublic.HADOOP_CALLER_CONTEXT_ENABLED_KEY,
            CommonConfigurationKeysPublic.HADOOP_CALLER_CONTEXT_ENABLED_DEFAULT);
    this.callerContextMaxLen =
        conf.getInt(
            CommonConfigurationKeysPublic.HADOOP_CALLER_CONTEXT_MAX_SIZE_KEY,
            CommonConfigurationKeysPublic.HADOOP_CALLER_CONTEXT_MAX_SIZE_DEFAULT);
    this.callerSignatureMaxLen =
        conf.getInt(
            CommonConfigurationKeysPublic.HADOOP_CALLER_CONTEXT_SIGNATURE_MAX_SIZE_KEY,
            CommonConfigurationKeysPublic.HADOOP_CALLER_CONTEXT_SIGNATURE_MAX_SIZE_DEFAULT);
    this.trackingId =
        conf.getBoolean(
            DFSConfigKeys.DFS_NAMENODE_AUDIT_LOG_TOKEN_TRACKING_ID_KEY,
            DFSConfigKeys.DFS_NAMENODE_AUDIT_LOG_TOKEN_TRACKING_ID_DEFAULT);
    debugCmds.addAll(
        List.of(conf.getTrimmedStrings(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOG_DEBUG_CMDLIST)));
    this.file = openFile(System.getProperty(LAUNCH_PROPERTY));
    this.writer = new Thread(this::drain, "audit-log-writer");
    writer.setDaemon(true);
    writer.start();
  }

  /**
   * HDFS's launch setting, {@code -Dhdfs.audit.logger=INFO,RFAAUDIT} (what {@code
   * HDFS_AUDIT_LOGGER} sets): at INFO with HDFS's {@code RFAAUDIT} appender, the lines go to {@code
   * ${hadoop.log.dir}/hdfs-audit.log} as HDFS's log4j.properties writes them.
   */
  public static final String LAUNCH_PROPERTY = "hdfs.audit.logger";

  private static final java.time.format.DateTimeFormatter ISO8601 =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  private static java.io.Writer openFile(String setting) {
    if (setting == null) {
      return null;
    }
    List<String> parts = List.of(setting.split("\\s*,\\s*"));
    boolean on = parts.get(0).equalsIgnoreCase("INFO") || parts.get(0).equalsIgnoreCase("DEBUG");
    if (!on || !parts.contains("RFAAUDIT")) {
      return null;
    }
    java.io.File f = new java.io.File(System.getProperty("hadoop.log.dir", "."), "hdfs-audit.log");
    try {
      return new java.io.BufferedWriter(
          new java.io.OutputStreamWriter(
              new java.io.FileOutputStream(f, true), java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      LOG.warn("cannot write the audit log to {}", f, e);
      return null;
    }
  }

  private static AuditLogger newLogger(String className, Configuration conf) {
    try {
      AuditLogger logger =
          (AuditLogger) Class.forName(className).getDeclaredConstructor().newInstance();
      logger.initialize(conf);
      return logger;
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalArgumentException(
          DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY + ": cannot use " + className, e);
    }
  }

  /**
   * Whether calls are audited at all: as HDFS, a custom logger always listens; the default one only
   * while {@value #LOGGER_NAME} logs at INFO (HDFS's {@code hdfs.audit.logger}).
   */
  public boolean enabled() {
    return !closed && (!others.isEmpty() || file != null || AUDIT.isInfoEnabled());
  }

  /** Queues an event for the writer thread; waits only if the queue is full. */
  public void log(Event event) {
    if (closed) {
      return;
    }
    queued.incrementAndGet();
    try {
      queue.put(event);
    } catch (InterruptedException e) {
      queued.decrementAndGet();
      Thread.currentThread().interrupt();
    }
  }

  /** Waits until every event queued so far is written (tests, and shutdown). */
  public boolean awaitWritten(long timeoutMillis) throws InterruptedException {
    long target = queued.get();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (written.get() < target) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(2);
    }
    return true;
  }

  private void drain() {
    while (!closed || !queue.isEmpty()) {
      Event e;
      try {
        e = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException ie) {
        continue; // close() interrupts; the loop drains what is left
      }
      if (e == null) {
        continue;
      }
      try {
        write(e);
      } catch (RuntimeException ex) {
        LOG.warn("audit logger failed on cmd={} src={}", e.cmd(), e.src(), ex);
      } finally {
        written.incrementAndGet();
      }
    }
  }

  private void write(Event e) {
    if (defaultFormat
        && (AUDIT.isDebugEnabled() || (AUDIT.isInfoEnabled() && !debugCmds.contains(e.cmd())))) {
      AUDIT.info(format(e));
    }
    if (defaultFormat && file != null && !debugCmds.contains(e.cmd())) {
      try {
        file.write(
            ISO8601.format(java.time.LocalDateTime.now())
                + " INFO FSNamesystem.audit: "
                + format(e)
                + System.lineSeparator());
        if (queue.isEmpty()) {
          file.flush();
        }
      } catch (java.io.IOException ex) {
        LOG.warn("cannot write the audit log", ex);
      }
    }
    for (AuditLogger logger : others) {
      logger.logAuditEvent(e.allowed(), e.ugi(), e.ip(), e.cmd(), e.src(), e.dst(), e.status());
    }
  }

  /** The line HDFS writes: tab-separated {@code key=value} fields in HDFS's order. */
  String format(Event e) {
    StringBuilder sb = new StringBuilder(160);
    sb.append("allowed=").append(e.allowed()).append('\t');
    sb.append("ugi=").append(e.ugi()).append('\t');
    sb.append("ip=").append(e.ip() == null ? "null" : "/" + e.ip().getHostAddress()).append('\t');
    sb.append("cmd=").append(e.cmd()).append('\t');
    sb.append("src=").append(StringEscapeUtils.escapeJava(e.src())).append('\t');
    sb.append("dst=").append(StringEscapeUtils.escapeJava(e.dst())).append('\t');
    FileStatus s = e.status();
    if (s == null) {
      sb.append("perm=null");
    } else {
      sb.append("perm=")
          .append(s.getOwner())
          .append(':')
          .append(s.getGroup())
          .append(':')
          .append(s.getPermission());
    }
    if (trackingId) {
      sb.append("\ttrackingId=null"); // hops issues no delegation tokens
    }
    sb.append("\tproto=").append(e.proto());
    CallerContext cc = e.callerContext();
    if (callerContextEnabled && cc != null && cc.isContextValid()) {
      sb.append("\tcallerContext=");
      String context = StringEscapeUtils.escapeJava(cc.getContext());
      sb.append(
          context.length() > callerContextMaxLen
              ? context.substring(0, callerContextMaxLen)
              : context);
      byte[] sig = cc.getSignature();
      if (sig != null && sig.length > 0 && sig.length <= callerSignatureMaxLen) {
        sb.append(':')
            .append(
                StringEscapeUtils.escapeJava(new String(sig, CallerContext.SIGNATURE_ENCODING)));
      }
    }
    return sb.toString();
  }

  @Override
  public void close() {
    closed = true;
    writer.interrupt();
    try {
      writer.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (file != null) {
      try {
        file.close();
      } catch (java.io.IOException e) {
        LOG.warn("cannot close the audit log", e);
      }
    }
  }
}
