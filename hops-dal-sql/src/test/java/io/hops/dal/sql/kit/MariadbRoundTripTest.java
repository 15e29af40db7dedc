package io.hops.dal.sql.kit;

import io.hops.dal.kit.RoundTripKit;

class MariadbRoundTripTest extends RoundTripKit implements MariadbFixture {}
