package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/** The one mapping of RocksDB errors to the DAL's retryable and non-retryable errors. */
final class Errors {
  private Errors() {}

  static StorageException of(String what, RocksDBException e) {
    Status status = e.getStatus();
    String message = what + ": " + e.getMessage();
    if (status != null
        && (status.getCode() == Status.Code.Busy
            || status.getCode() == Status.Code.TryAgain
            || status.getCode() == Status.Code.TimedOut)) {
      return new TransientStorageException(message, e);
    }
    return new StorageException(message, e);
  }
}
