package io.hops.namenode.blocks;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.hdfs.server.protocol.BlockCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commands queued here for one datanode's next heartbeat, each with the leader epoch it was
 * decided under (see {@link DatanodeManager#commandsFor}).
 */
final class NodeCommands {
  private static final Logger LOG = LoggerFactory.getLogger(NodeCommands.class);

  private final Deque<Queued> commands = new ArrayDeque<>();

  /** A command and the leader epoch it was decided under. */
  private record Queued(long epoch, DatanodeCommand command) {}

  /** See {@link DatanodeState#addCommand}. */
  void add(long epoch, DatanodeCommand c) {
    if (epoch < 0) {
      return;
    }
    synchronized (commands) {
      commands.add(new Queued(epoch, c));
    }
  }

  /**
   * Up to {@code max} commands decided under {@code epoch}, the one this namenode leads now; the
   * commands of any other epoch are dropped (all of them when it leads none: {@code epoch < 0}).
   */
  List<DatanodeCommand> drain(int max, long epoch, String datanodeUuid) {
    List<DatanodeCommand> out = new ArrayList<>();
    int stale = 0;
    synchronized (commands) {
      while (!commands.isEmpty() && out.size() < max) {
        Queued q = commands.poll();
        if (epoch >= 0 && q.epoch() == epoch) {
          out.add(q.command());
        } else {
          stale++;
        }
      }
    }
    if (stale > 0) {
      LOG.info(
          "{} commands for datanode {} dropped: decided under another leader epoch than {}",
          stale,
          datanodeUuid,
          epoch < 0 ? "none (not leading)" : epoch);
    }
    return out;
  }

  /** The blocks the queued {@code DNA_TRANSFER} commands ask copies of. */
  int transferBlocks() {
    int n = 0;
    synchronized (commands) {
      for (Queued q : commands) {
        if (q.command() instanceof BlockCommand b
            && b.getAction() == DatanodeProtocol.DNA_TRANSFER) {
          n += b.getBlocks().length;
        }
      }
    }
    return n;
  }

  int size() {
    synchronized (commands) {
      return commands.size();
    }
  }

  void clear() {
    synchronized (commands) {
      commands.clear();
    }
  }
}
