package io.hops.dal.embedded.kit;

import io.hops.dal.kit.RoundTripKit;

class EmbeddedRoundTripTest extends RoundTripKit implements EmbeddedFixture {}
