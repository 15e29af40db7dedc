package io.hops.dal.schema;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the column a table is partitioned by (docs/architecture.md, "Metadata schema"). It is
 * always part of the primary key, so one partition-pruned scan reads one shard.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface PartitionKey {}
