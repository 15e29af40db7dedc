package io.hops.dal.sql.kit;

import io.hops.dal.kit.InsertIfAbsentKit;

class MariadbInsertIfAbsentTest extends InsertIfAbsentKit implements MariadbFixture {}
