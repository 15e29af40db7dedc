package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * One entry of the hosts lists an operator's {@code refreshNodes} read: of the plain files ({@code
 * dfs.hosts}: list 0, {@code dfs.hosts.exclude}: list 1), as written in the file, a host name or
 * address with an optional port; of the JSON hosts file ({@code CombinedHostFileManager}: list 2),
 * one host's object (host, port, admin state, maintenance expiry) as JSON. Every namenode matches
 * registrations against these rows.
 */
@TableName("datanode_hosts")
public record DatanodeHostRow(@Pk @PartitionKey byte hostsList, @Pk @MaxBytes(255) String entry) {
  public static final Table<DatanodeHostRow> TABLE = Table.of(DatanodeHostRow.class);

  public static final byte INCLUDE = 0;
  public static final byte EXCLUDE = 1;
  public static final byte COMBINED = 2;
}
