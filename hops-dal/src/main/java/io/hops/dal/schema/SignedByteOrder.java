package io.hops.dal.schema;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A string key column whose values order as HDFS orders names: byte-wise over UTF-8 with each byte
 * compared as a <em>signed</em> value ({@code DFSUtilClient.compareBytes}), so a name with a
 * non-ASCII byte ({@code 0x80..0xFF}) sorts before one with an ASCII byte at the same place. Every
 * engine's own order is unsigned, so each stores the column's key bytes with the top bit of every
 * byte flipped (signed order of {@code b} is unsigned order of {@code b ^ 0x80}) and flips it back
 * on reading; rows, keys and range scans then come in HDFS's order and a listing page is one
 * bounded range scan.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface SignedByteOrder {}
