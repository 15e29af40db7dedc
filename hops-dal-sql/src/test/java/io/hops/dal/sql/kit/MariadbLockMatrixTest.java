package io.hops.dal.sql.kit;

import io.hops.dal.kit.LockMatrixKit;

class MariadbLockMatrixTest extends LockMatrixKit implements MariadbFixture {}
