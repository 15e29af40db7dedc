package io.hops.dal.schema;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says of a partitioned table that a new row mostly takes a key above every key its partition holds
 * (the retry cache: a client's call ids only grow). A hint for drivers, never needed for
 * correctness: the embedded engine keeps each partition's greatest key, so that a lookup of a key
 * above it is answered absent without a read.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AscendingKeys {}
