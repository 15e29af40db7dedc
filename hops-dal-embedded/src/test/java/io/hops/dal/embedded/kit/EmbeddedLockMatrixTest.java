package io.hops.dal.embedded.kit;

import io.hops.dal.kit.LockMatrixKit;

class EmbeddedLockMatrixTest extends LockMatrixKit implements EmbeddedFixture {}
