package io.hops.dal.kit;

import io.hops.dal.Storage;
import java.util.Map;

/**
 * How a driver's tests plug into the conformance kit: each kit class is abstract and the driver's
 * concrete test class implements this, e.g. {@code class EmbeddedLockMatrixTest extends
 * LockMatrixKit implements EmbeddedFixture {}}.
 */
public interface StorageFixture {

  /**
   * Opens a storage over an empty database whose schema exists. {@code settings} are extra {@code
   * hops.metadata.*} keys the kit needs (e.g. {@link
   * io.hops.common.HopsConfig#LOCK_WAIT_TIMEOUT_MS}) and override the fixture's own. The kit closes
   * the storage after the test. A fixture may hand out the same database again, emptied, so a test
   * uses one storage at a time.
   */
  Storage open(Map<String, String> settings) throws Exception;
}
