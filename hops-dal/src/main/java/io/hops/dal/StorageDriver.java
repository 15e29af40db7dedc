package io.hops.dal;

/** A database driver, found with {@link java.util.ServiceLoader} by its engine name. */
public interface StorageDriver {
  /** The engine this driver serves, the value of {@code hops.metadata.engine}. */
  String engine();

  Storage open(DalConfig config) throws StorageException;
}
