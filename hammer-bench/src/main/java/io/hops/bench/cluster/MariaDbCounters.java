package io.hops.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;

/**
 * What a MariaDB (or MySQL) server has done so far: the statements it received from all clients
 * (status {@code Questions}: every statement a namenode sends, commits and rollbacks included, is
 * one round trip) and, when it runs on this machine, its process's CPU time.
 */
public record MariaDbCounters(String jdbcUrl, String user, String password) {

  /** Statements so far and CPU milliseconds so far (-1 where unknown). */
  public record Sample(long statements, long cpuMillis) {}

  /** Reads both counters; the reading itself costs the server two statements. */
  public Sample sample() {
    try (Connection c = DriverManager.getConnection(jdbcUrl, user, password);
        Statement st = c.createStatement()) {
      long questions = -1;
      try (ResultSet r = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Questions'")) {
        if (r.next()) {
          questions = r.getLong(2);
        }
      }
      long cpu = -1;
      try (ResultSet r = st.executeQuery("SELECT @@pid_file")) {
        if (r.next() && r.getString(1) != null) {
          cpu = cpuMillis(Path.of(r.getString(1)));
        }
      }
      return new Sample(questions, cpu);
    } catch (SQLException e) {
      return new Sample(-1, -1);
    }
  }

  /** The CPU time of the process whose pid file this is, if it is on this machine. */
  private static long cpuMillis(Path pidFile) {
    try {
      long pid = Long.parseLong(Files.readString(pidFile).trim());
      OptionalLong ms = ProcCpu.millis(pid);
      return ms.orElse(-1);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
