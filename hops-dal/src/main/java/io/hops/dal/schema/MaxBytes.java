package io.hops.dal.schema;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The size limit of a string (in bytes of UTF-8) or binary column. Every string and byte-array
 * column must declare one; a row over it is refused before anything is sent.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface MaxBytes {
  /**
   * User, group and client names (HDFS has no limit): as wide as every SQL engine can key them,
   * InnoDB's 3072 bytes of an index less the 8-byte inode id {@code lease_paths} keys a holder
   * with.
   */
  int NAME = 3064;

  int value();
}
