package io.hops.dal.schema;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A secondary index on this column, which index scans may use. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Indexed {
  /**
   * Whether no two rows may share a value: an insert or update that would is refused with {@link
   * io.hops.dal.DuplicateKeyException}, by the engines whose DDL can say it (embedded, NDB; InnoDB
   * cannot without the partition column, see schema/mysql.sql).
   */
  boolean unique() default false;

  /**
   * If not empty, a partial index: it holds only the rows whose value is one of these (of an
   * integral column), and finding rows by any other value is refused with {@link
   * IllegalArgumentException} on every engine (an engine may still index every row). A key-value
   * engine then writes no entry for the other rows.
   */
  long[] only() default {};
}
