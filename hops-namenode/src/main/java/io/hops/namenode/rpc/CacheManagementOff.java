package io.hops.namenode.rpc;

import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.InvalidRequestException;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;

/**
 * Centralized cache management with no pools and no directives, and none can be added ({@link
 * FeaturesOff}): each call fails with the message HDFS gives for the missing pool or directive.
 */
final class CacheManagementOff extends AbsentFeature {

  CacheManagementOff(TransactionRunner runner, PermissionCheckers checkers) {
    super(runner, checkers);
  }

  BatchedEntries<CacheDirectiveEntry> listCacheDirectives() {
    return none();
  }

  BatchedEntries<CachePoolEntry> listCachePools() {
    return none();
  }

  void addCachePool(CachePoolInfo info) throws IOException {
    superuser("addCachePool");
    throw new UnsupportedActionException(
        "addCachePool: hops has no centralized cache management, so cache pool "
            + info.getPoolName()
            + " cannot be added");
  }

  void modifyCachePool(CachePoolInfo info) throws IOException {
    superuser("modifyCachePool");
    throw new InvalidRequestException("Cache pool " + info.getPoolName() + " does not exist.");
  }

  void removeCachePool(String cachePoolName) throws IOException {
    superuser("removeCachePool");
    throw new InvalidRequestException("Cannot remove non-existent cache pool " + cachePoolName);
  }

  long addCacheDirective(CacheDirectiveInfo directive) throws IOException {
    if (directive.getPool() == null) {
      throw new InvalidRequestException("No pool specified.");
    }
    throw new InvalidRequestException("Unknown pool " + directive.getPool());
  }

  /** modifyCacheDirective and removeCacheDirective: no directive has the id. */
  static IOException noDirective(Long id) {
    if (id == null) {
      return new InvalidRequestException("Must supply an ID.");
    }
    if (id < 0) {
      return new InvalidRequestException("Invalid negative ID.");
    }
    return new InvalidRequestException("No directive with ID " + id + " found.");
  }
}
