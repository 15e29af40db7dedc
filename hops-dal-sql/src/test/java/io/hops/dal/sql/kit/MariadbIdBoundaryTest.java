package io.hops.dal.sql.kit;

import io.hops.dal.kit.IdBoundaryKit;

class MariadbIdBoundaryTest extends IdBoundaryKit implements MariadbFixture {}
