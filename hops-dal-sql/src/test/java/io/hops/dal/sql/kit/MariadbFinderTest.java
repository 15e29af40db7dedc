package io.hops.dal.sql.kit;

import io.hops.dal.kit.FinderKit;

class MariadbFinderTest extends FinderKit implements MariadbFixture {}
