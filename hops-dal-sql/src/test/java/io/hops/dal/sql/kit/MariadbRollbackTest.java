package io.hops.dal.sql.kit;

import io.hops.dal.kit.RollbackKit;

class MariadbRollbackTest extends RollbackKit implements MariadbFixture {}
