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
  int value();
}
