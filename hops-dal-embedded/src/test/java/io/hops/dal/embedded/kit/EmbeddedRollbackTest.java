package io.hops.dal.embedded.kit;

import io.hops.dal.kit.RollbackKit;

class EmbeddedRollbackTest extends RollbackKit implements EmbeddedFixture {}
