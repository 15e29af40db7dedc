package io.hops.namenode.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A locked read of a directory on a path goes by the row key its hint keeps (built once, with the
 * encoding the driver keeps on it), not by a key built again: the parent of a file created or
 * deleted is read so by every such call in the directory.
 */
class PathResolverKeysTest {
  private final Map<Key, InodeRow> rows = new HashMap<>();
  private final List<Key> lockedReads = new ArrayList<>();

  @Test
  void theParentIsReadUnderItsLockByItsHintsKey() throws Exception {
    add(Inodes.NO_PARENT, "", Inodes.ROOT_ID, true);
    add(Inodes.ROOT_ID, "hot", 2, true);
    add(2, "file", 3, false);
    InodeHintCache hints = new InodeHintCache(100);
    PathResolver resolver = new PathResolver(hints);
    Transaction tx = transaction();

    resolver.resolve(tx, "/hot/file", LockMode.EXCLUSIVE, LockMode.EXCLUSIVE); // hints now warm
    lockedReads.clear();
    ResolvedPath p = resolver.resolve(tx, "/hot/file", LockMode.EXCLUSIVE, LockMode.EXCLUSIVE);

    assertThat(p.inodes()).extracting(InodeRow::id).containsExactly(Inodes.ROOT_ID, 2L, 3L);
    assertThat(lockedReads).hasSize(2);
    assertThat(lockedReads.get(0)).isSameAs(hints.hint(Inodes.ROOT_ID, "hot").key());
    assertThat(lockedReads.get(1)).isEqualTo(Inodes.key(2, "file")); // a file's hint keeps none
  }

  private void add(long parentId, String name, long id, boolean dir) {
    InodeRow row = SampleRows.typical(InodeRow.TABLE, id);
    Key key = parentId == Inodes.NO_PARENT ? Inodes.rootKey() : Inodes.key(parentId, name);
    row = SampleRows.with(InodeRow.TABLE, row, "partition_id", key.value(0));
    row = SampleRows.with(InodeRow.TABLE, row, "parent_id", parentId);
    row = SampleRows.with(InodeRow.TABLE, row, "name", name);
    row = SampleRows.with(InodeRow.TABLE, row, "id", id);
    row = SampleRows.with(InodeRow.TABLE, row, "is_dir", dir);
    row = SampleRows.with(InodeRow.TABLE, row, "subtree_locked", false);
    row = SampleRows.with(InodeRow.TABLE, row, "snapshottable", false);
    rows.put(key, row);
  }

  /** Reads {@link #rows}; records the keys of the reads under a lock. */
  private Transaction transaction() {
    return (Transaction)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {Transaction.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "find" -> {
                    if (args[2] != LockMode.READ_COMMITTED) {
                      lockedReads.add((Key) args[1]);
                    }
                    yield rows.get((Key) args[1]);
                  }
                  case "findBatch" -> {
                    List<InodeRow> found = new ArrayList<>();
                    for (Object k : (List<?>) args[1]) {
                      found.add(rows.get((Key) k));
                    }
                    yield found;
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
