package io.hops.dal.sql.kit;

import io.hops.dal.kit.LockFailureKit;

class EmbeddedLockFailureTest extends LockFailureKit implements EmbeddedFixture {}
