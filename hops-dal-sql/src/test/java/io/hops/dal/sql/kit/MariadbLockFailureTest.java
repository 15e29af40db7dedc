package io.hops.dal.sql.kit;

import io.hops.dal.kit.LockFailureKit;

class MariadbLockFailureTest extends LockFailureKit implements MariadbFixture {}
