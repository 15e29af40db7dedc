package io.hops.dal.sql.kit;

import io.hops.dal.kit.RoundTripKit;

class EmbeddedRoundTripTest extends RoundTripKit implements EmbeddedFixture {}
