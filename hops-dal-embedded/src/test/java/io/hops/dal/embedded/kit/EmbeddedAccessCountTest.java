package io.hops.dal.embedded.kit;

import io.hops.dal.kit.AccessCountKit;

class EmbeddedAccessCountTest extends AccessCountKit implements EmbeddedFixture {}
