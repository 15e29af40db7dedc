package io.hops.dal.embedded.kit;

import io.hops.dal.kit.LockFailureKit;

class EmbeddedLockFailureTest extends LockFailureKit implements EmbeddedFixture {}
