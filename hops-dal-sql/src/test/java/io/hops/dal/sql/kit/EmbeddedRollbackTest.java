package io.hops.dal.sql.kit;

import io.hops.dal.kit.RollbackKit;

class EmbeddedRollbackTest extends RollbackKit implements EmbeddedFixture {}
