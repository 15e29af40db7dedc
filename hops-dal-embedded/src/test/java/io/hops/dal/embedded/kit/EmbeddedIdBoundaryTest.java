package io.hops.dal.embedded.kit;

import io.hops.dal.kit.IdBoundaryKit;

class EmbeddedIdBoundaryTest extends IdBoundaryKit implements EmbeddedFixture {}
