package io.hops.dal.embedded.kit;

import io.hops.dal.kit.IdRangeKit;

class EmbeddedIdRangeTest extends IdRangeKit implements EmbeddedFixture {}
