package io.hops.dal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.WriteOp.Kind;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteBufferTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private final WriteBuffer buffer = new WriteBuffer();

  private static InodeRow inode(long seed) {
    return SampleRows.typical(T, seed);
  }

  private static InodeRow changed(InodeRow r, long seed) {
    return SampleRows.withKeyOf(T, SampleRows.typical(T, seed), r);
  }

  private static String describe(List<WriteOp> ops) {
    StringBuilder out = new StringBuilder();
    for (WriteOp op : ops) {
      out.append(op.kind()).append(' ').append(op.key()).append('\n');
    }
    return out.toString();
  }

  @Test
  void startsEmpty() {
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.inFlushOrder()).isEmpty();
  }

  @Test
  void insertThenUpdateIsOneInsertOfTheUpdatedRow() throws Exception {
    InodeRow r = inode(1);
    InodeRow u = changed(r, 2);
    buffer.insert(T.keyOf(r), r);
    buffer.update(T.keyOf(r), u);
    assertThat(buffer.inFlushOrder()).containsExactly(new WriteOp(Kind.INSERT, T, T.keyOf(r), u));
  }

  @Test
  void insertThenDeleteIsNothing() throws Exception {
    InodeRow r = inode(1);
    buffer.insert(T.keyOf(r), r);
    buffer.delete(T.keyOf(r));
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.inFlushOrder()).isEmpty();
  }

  @Test
  void deleteThenInsertIsBothInThatOrder() throws Exception {
    InodeRow r = inode(1);
    Key k = T.keyOf(r);
    buffer.delete(k);
    buffer.insert(k, r);
    assertThat(buffer.inFlushOrder())
        .containsExactly(new WriteOp(Kind.DELETE, T, k, null), new WriteOp(Kind.INSERT, T, k, r));
  }

  @Test
  void deleteThenInsertThenUpdateIsADeleteAndAnInsertOfTheUpdatedRow() throws Exception {
    InodeRow r = inode(1);
    InodeRow u = changed(r, 2);
    Key k = T.keyOf(r);
    buffer.delete(k);
    buffer.insert(k, r);
    buffer.update(k, u);
    assertThat(buffer.inFlushOrder())
        .containsExactly(new WriteOp(Kind.DELETE, T, k, null), new WriteOp(Kind.INSERT, T, k, u));
  }

  @Test
  void deleteThenInsertThenDeleteIsOneDelete() throws Exception {
    InodeRow r = inode(1);
    Key k = T.keyOf(r);
    buffer.delete(k);
    buffer.insert(k, r);
    buffer.delete(k);
    assertThat(buffer.inFlushOrder()).containsExactly(new WriteOp(Kind.DELETE, T, k, null));
  }

  @Test
  void updatesOfOneRowKeepTheLast() throws Exception {
    InodeRow r = inode(1);
    buffer.update(T.keyOf(r), changed(r, 2));
    buffer.update(T.keyOf(r), changed(r, 3));
    assertThat(buffer.inFlushOrder())
        .containsExactly(new WriteOp(Kind.UPDATE, T, T.keyOf(r), changed(r, 3)));
  }

  @Test
  void updateThenDeleteIsOneDelete() throws Exception {
    InodeRow r = inode(1);
    buffer.update(T.keyOf(r), changed(r, 2));
    buffer.delete(T.keyOf(r));
    assertThat(buffer.inFlushOrder())
        .containsExactly(new WriteOp(Kind.DELETE, T, T.keyOf(r), null));
  }

  @Test
  void deletingTwiceIsOneDelete() throws Exception {
    InodeRow r = inode(1);
    buffer.delete(T.keyOf(r));
    buffer.delete(T.keyOf(r));
    assertThat(buffer.inFlushOrder()).hasSize(1);
  }

  @Test
  void insertingOneRowTwiceIsRefused() throws Exception {
    InodeRow r = inode(1);
    buffer.insert(T.keyOf(r), r);
    assertThatThrownBy(() -> buffer.insert(T.keyOf(r), changed(r, 2)))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("inserted twice");
  }

  @Test
  void insertingAnUpdatedRowIsRefused() throws Exception {
    InodeRow r = inode(1);
    buffer.update(T.keyOf(r), r);
    assertThatThrownBy(() -> buffer.insert(T.keyOf(r), r)).isInstanceOf(StorageException.class);
  }

  @Test
  void updatingADeletedRowIsRefused() {
    InodeRow r = inode(1);
    buffer.delete(T.keyOf(r));
    assertThatThrownBy(() -> buffer.update(T.keyOf(r), r))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("after its delete");
  }

  @Test
  void keysEqualByValueNotIdentity() throws Exception {
    InodeRow r = inode(1);
    buffer.insert(T.key(r.partitionId(), r.parentId(), r.name()), r);
    buffer.delete(T.key((int) r.partitionId(), r.parentId(), new String(r.name())));
    assertThat(buffer.isEmpty()).isTrue();
  }

  @Test
  void flushSendsDeletesThenUpdatesThenInsertsEachInTableOrderThenFirstWriteOrder()
      throws Exception {
    Table<VariableRow> v = VariableRow.TABLE;
    Table<BlockInfoRow> b = BlockInfoRow.TABLE;
    VariableRow var1 = SampleRows.typical(v, 1);
    VariableRow var2 = SampleRows.typical(v, 2);
    BlockInfoRow block1 = SampleRows.typical(b, 1);
    BlockInfoRow block2 = SampleRows.typical(b, 2);
    InodeRow in1 = inode(1);
    InodeRow in2 = inode(2);
    InodeRow in3 = inode(3);
    InodeRow in4 = inode(4);
    buffer.insert(v.keyOf(var1), var1);
    buffer.update(b.keyOf(block1), block1);
    buffer.insert(T.keyOf(in2), in2);
    buffer.delete(v.keyOf(var2));
    buffer.insert(T.keyOf(in1), in1);
    buffer.delete(b.keyOf(block2));
    buffer.update(T.keyOf(in3), in3);
    buffer.delete(T.keyOf(in4));
    buffer.insert(T.keyOf(in4), in4);
    List<WriteOp> expected =
        List.of(
            new WriteOp(Kind.DELETE, T, T.keyOf(in4), null),
            new WriteOp(Kind.DELETE, b, b.keyOf(block2), null),
            new WriteOp(Kind.DELETE, v, v.keyOf(var2), null),
            new WriteOp(Kind.UPDATE, T, T.keyOf(in3), in3),
            new WriteOp(Kind.UPDATE, b, b.keyOf(block1), block1),
            new WriteOp(Kind.INSERT, T, T.keyOf(in2), in2),
            new WriteOp(Kind.INSERT, T, T.keyOf(in1), in1),
            new WriteOp(Kind.INSERT, T, T.keyOf(in4), in4),
            new WriteOp(Kind.INSERT, v, v.keyOf(var1), var1));
    assertThat(describe(buffer.inFlushOrder())).isEqualTo(describe(expected));
    assertThat(buffer.inFlushOrder()).isEqualTo(expected);
  }
}
