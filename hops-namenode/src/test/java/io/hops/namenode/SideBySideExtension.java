package io.hops.namenode;

import io.hops.namenode.SideBySide.Side;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link SideBySide} for a test class: started before its tests, with a set-up run on each side,
 * and closed after them. A class registers it in a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final SideBySideExtension both =
 *     SideBySideExtension.of(() -> SideBySide.start("setattr")).eachSide(MyTest::setUp);
 * }</pre>
 */
public final class SideBySideExtension implements BeforeAllCallback, AfterAllCallback {
  /** Starts the two systems. */
  @FunctionalInterface
  public interface Start {
    SideBySide start() throws Exception;
  }

  /** Prepares one side before the class's tests. */
  @FunctionalInterface
  public interface SetUp {
    void run(Side s) throws Exception;
  }

  private final Start start;
  private final SetUp setUp;
  private SideBySide both;

  private SideBySideExtension(Start start, SetUp setUp) {
    this.start = start;
    this.setUp = setUp;
  }

  public static SideBySideExtension of(Start start) {
    return new SideBySideExtension(start, s -> {});
  }

  /** The same, {@code setUp} run on hops's side and then on HDFS's once both started. */
  public SideBySideExtension eachSide(SetUp setUp) {
    return new SideBySideExtension(start, setUp);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    both = start.start();
    setUp.run(both.hopsSide);
    setUp.run(both.hdfsSide);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (both != null) {
      both.close();
      both = null;
    }
  }

  /** The two systems, while the class's tests run. */
  public SideBySide get() {
    return both;
  }

  /** hops's cluster: its first namenode, its store and its datanodes. */
  public HopsTestCluster hops() {
    return both.hops;
  }

  /** hops's second namenode, where the side by side has datanodes; else null. */
  public HopsNameNode other() {
    return both.other;
  }

  /** Apache HDFS's cluster. */
  public MiniDFSCluster hdfs() {
    return both.hdfs;
  }

  /** hops's side. */
  public Side hopsSide() {
    return both.hopsSide;
  }

  /** HDFS's side. */
  public Side hdfsSide() {
    return both.hdfsSide;
  }
}
