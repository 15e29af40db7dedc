package io.hops.dal.sql.kit;

import io.hops.dal.kit.IdRangeKit;

class EmbeddedIdRangeTest extends IdRangeKit implements EmbeddedFixture {}
