package io.hops.dal.sql.kit;

import io.hops.dal.kit.AccessCountKit;

class EmbeddedAccessCountTest extends AccessCountKit implements EmbeddedFixture {}
