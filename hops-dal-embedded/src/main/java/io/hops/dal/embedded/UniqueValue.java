package io.hops.dal.embedded;

import java.nio.ByteBuffer;

/**
 * The lock name of one value of a unique index (its index prefix): a transaction that writes the
 * value holds it exclusively while it checks that no other row has the value, so two transactions
 * cannot both find it free.
 */
record UniqueValue(ByteBuffer indexPrefix) {
  static UniqueValue of(byte[] indexPrefix) {
    return new UniqueValue(ByteBuffer.wrap(indexPrefix));
  }
}
