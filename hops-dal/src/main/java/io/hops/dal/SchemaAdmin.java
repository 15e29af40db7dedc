package io.hops.dal;

import java.util.List;

/** Creates, upgrades and inspects the schema of one engine. */
public interface SchemaAdmin {

  /** The tables of the schema that exist in the database. */
  List<String> existingTables() throws StorageException;

  /** Whether any table of the schema holds a row. */
  boolean hasData() throws StorageException;

  /**
   * Creates the tables that are missing and the columns a table lacks; leaves existing data alone.
   * Idempotent. Returns the tables it created.
   */
  List<String> createOrUpgrade() throws StorageException;

  /** Deletes every row of every table, keeping the schema. */
  void clearAll() throws StorageException;

  /** Drops every table of the schema with its data. */
  void dropAll() throws StorageException;
}
