package io.hops.dal.sql.kit;

import io.hops.dal.kit.FinderKit;

class EmbeddedFinderTest extends FinderKit implements EmbeddedFixture {}
