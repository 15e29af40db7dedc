package io.hops.dal.embedded.kit;

import io.hops.dal.kit.FinderKit;

class EmbeddedFinderTest extends FinderKit implements EmbeddedFixture {}
