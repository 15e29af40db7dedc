package io.hops.dal.sql;

/** MySQL NDB Cluster through its SQL nodes: the MySQL driver with NDB's DDL and error codes. */
public final class NdbDriver extends MysqlDriver {

  @Override
  public String engine() {
    return "ndb";
  }

  @Override
  SqlDialect dialect() {
    return new NdbDialect();
  }
}
