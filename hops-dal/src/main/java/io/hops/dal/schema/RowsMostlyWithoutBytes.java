package io.hops.dal.schema;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says of a table with a bytes column that its rows are read often and mostly hold no bytes (the
 * variables: the {@code safe_mode} row every write reads). A hint for drivers, never needed for
 * correctness: the embedded engine's row cache, which cannot hand out a row whose bytes a caller
 * could change, keeps such a table's rows while their bytes columns are null.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RowsMostlyWithoutBytes {}
