package io.hops.dal.sql.kit;

import io.hops.dal.kit.LockMatrixKit;

class EmbeddedLockMatrixTest extends LockMatrixKit implements EmbeddedFixture {}
