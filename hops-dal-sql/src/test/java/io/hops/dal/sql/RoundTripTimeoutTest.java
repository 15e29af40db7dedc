package io.hops.dal.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.sql.kit.MariadbFixture;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A statement whose answer does not come (here a server-side sleep or a lock wait; a frozen
 * database looks the same from the client) fails after the round-trip timeout with a retryable
 * error, and the pool closes its connection instead of handing it out again (issue 63).
 */
class RoundTripTimeoutTest implements MariadbFixture {
  private static final long TIMEOUT_MS = 1500;

  @Test
  void aStatementWithoutAnAnswerFailsAfterTheTimeoutAndItsConnectionIsNotReused() throws Exception {
    try (Storage storage =
        open(
            Map.of(
                HopsConfig.ROUND_TRIP_TIMEOUT_MS, Long.toString(TIMEOUT_MS),
                HopsConfig.LOCK_WAIT_TIMEOUT_MS, "500",
                HopsConfig.POOL_SIZE, "1"))) {
      SqlStorage sql = (SqlStorage) storage;
      long first;
      long start = System.nanoTime();
      try (Connection c = sql.connection()) {
        first = connectionId(c);
        assertThat(c.getNetworkTimeout()).isEqualTo((int) TIMEOUT_MS);
        assertThatThrownBy(() -> query(c, "SELECT SLEEP(10)"))
            .isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
      }
      assertThat(millisSince(start)).isBetween(TIMEOUT_MS, 3 * TIMEOUT_MS);
      try (Connection c = sql.connection()) {
        assertThat(connectionId(c)).isNotEqualTo(first);
      }
    }
  }

  @Test
  void aTransactionsRoundTripsWaitNoLongerThanItsLimit() throws Exception {
    try (Storage storage =
        open(
            Map.of(
                HopsConfig.ROUND_TRIP_TIMEOUT_MS, "10000",
                HopsConfig.LOCK_WAIT_TIMEOUT_MS, "5000",
                HopsConfig.POOL_SIZE, "2"))) {
      try (Transaction tx = storage.begin()) {
        tx.insert(VariableRow.TABLE, new VariableRow("frozen", 1, null));
        tx.commit();
      }
      try (Transaction holder = storage.begin()) {
        holder.find(VariableRow.TABLE, VariableRow.TABLE.key("frozen"), LockMode.EXCLUSIVE);
        long start = System.nanoTime();
        try (Transaction waiter = storage.begin()) {
          waiter.limitRoundTrips(500);
          assertThatThrownBy(
                  () ->
                      waiter.find(
                          VariableRow.TABLE, VariableRow.TABLE.key("frozen"), LockMode.EXCLUSIVE))
              .isInstanceOf(TransientStorageException.class);
        }
        // Not the 5 s lock wait: the limit ended the round trip.
        assertThat(millisSince(start)).isLessThan(2500);
      }
      // The pool's own timeout is back on the connection that replaced the one given up.
      try (Connection c = ((SqlStorage) storage).connection()) {
        assertThat(c.getNetworkTimeout()).isEqualTo(10_000);
      }
      try (Transaction tx = storage.begin()) {
        assertThat(tx.find(VariableRow.TABLE, VariableRow.TABLE.key("frozen"), LockMode.EXCLUSIVE))
            .isNotNull();
      }
    }
  }

  private static long connectionId(Connection c) throws SQLException {
    return query(c, "SELECT CONNECTION_ID()");
  }

  private static long query(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000L;
  }
}
