package io.hops.namenode.ops;

import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * {@code getStats} ({@code hdfs dfs -df}, {@code FileSystem.getStatus}): the array indexed by
 * {@code ClientProtocol.GET_STATS_*}. No datanode has registered and no block exists before the
 * data path, so capacity, use and every block count are zero, as an HDFS namenode without datanodes
 * reports. The block manager fills these in once there are datanodes.
 */
public final class GetStats {
  private GetStats() {}

  public static long[] stats() {
    return new long[ClientProtocol.STATS_ARRAY_LENGTH];
  }
}
