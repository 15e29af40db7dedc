package io.hops.dal.embedded.kit;

import io.hops.dal.kit.InsertIfAbsentKit;

class EmbeddedInsertIfAbsentTest extends InsertIfAbsentKit implements EmbeddedFixture {}
