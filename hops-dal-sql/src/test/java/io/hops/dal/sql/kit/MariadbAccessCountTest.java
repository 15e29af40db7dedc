package io.hops.dal.sql.kit;

import io.hops.dal.kit.AccessCountKit;

class MariadbAccessCountTest extends AccessCountKit implements MariadbFixture {}
