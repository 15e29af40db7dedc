package io.hops.dal.sql.kit;

import io.hops.dal.kit.IdRangeKit;

class MariadbIdRangeTest extends IdRangeKit implements MariadbFixture {}
