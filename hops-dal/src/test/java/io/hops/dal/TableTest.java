package io.hops.dal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;
import io.hops.dal.schema.Tables;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TableTest {
  @TableName("samples")
  record SampleRow(
      @Pk @PartitionKey long partId,
      @Pk @MaxBytes(4) String shortName,
      @Indexed int someCount,
      Long boxedValue,
      @MaxBytes(3) byte[] blob,
      boolean flagIsSet) {}

  @TableName("no_key")
  record NoKeyRow(long a) {}

  record NoNameRow(@Pk long a) {}

  @TableName("unsized")
  record UnsizedRow(@Pk long a, String text) {}

  @TableName("sized_number")
  record SizedNumberRow(@Pk @MaxBytes(8) long a) {}

  @TableName("loose_partition")
  record LoosePartitionRow(@Pk long a, @PartitionKey long b) {}

  private static final Table<SampleRow> T = Table.of(SampleRow.class);

  @Test
  void columnsAreDerivedFromTheRecordComponents() {
    assertThat(T.name()).isEqualTo("samples");
    assertThat(T.rowType()).isEqualTo(SampleRow.class);
    assertThat(T.columns())
        .containsExactly(
            new Column("part_id", ColumnType.BIGINT, 0, false, true, true, false, 0, false),
            new Column("short_name", ColumnType.STRING, 4, false, true, false, false, 1, false),
            new Column("some_count", ColumnType.INT, 0, false, false, false, true, 2, false),
            new Column("boxed_value", ColumnType.BIGINT, 0, true, false, false, false, 3, false),
            new Column("blob", ColumnType.BYTES, 3, true, false, false, false, 4, false),
            new Column("flag_is_set", ColumnType.BOOLEAN, 0, false, false, false, false, 5, false));
    assertThat(T.keyColumns()).extracting(Column::name).containsExactly("part_id", "short_name");
    assertThat(T.partitionColumn()).map(Column::name).contains("part_id");
    assertThat(T.column("some_count").indexed()).isTrue();
  }

  @Test
  void anUnknownColumnIsRefusedNamingIt() {
    assertThatThrownBy(() -> T.column("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("samples")
        .hasMessageContaining("nope");
  }

  @Test
  void badRecordsAreRefused() {
    assertThatThrownBy(() -> Table.of(NoKeyRow.class)).hasMessageContaining("@Pk");
    assertThatThrownBy(() -> Table.of(NoNameRow.class)).hasMessageContaining("@TableName");
    assertThatThrownBy(() -> Table.of(UnsizedRow.class)).hasMessageContaining("@MaxBytes");
    assertThatThrownBy(() -> Table.of(SizedNumberRow.class)).hasMessageContaining("@MaxBytes");
    assertThatThrownBy(() -> Table.of(LoosePartitionRow.class))
        .hasMessageContaining("partition key must be in the key");
  }

  @Test
  void rowsConvertToColumnValuesAndBack() {
    SampleRow row = new SampleRow(1, "ab", 3, null, new byte[] {1}, true);
    Object[] values = new Object[T.columns().size()];
    for (Column c : T.columns()) {
      values[c.position()] = T.get(row, c.position());
    }
    assertThat(values).containsExactly(1L, "ab", 3, null, row.blob(), true);
    assertThat(T.newRow(values)).isEqualTo(row);
  }

  @Test
  void rowsAreBuiltFromUnboxedColumnValuesInReusedArrays() {
    long[] primitives = new long[T.columns().size()];
    Object[] references = new Object[T.columns().size()];
    primitives[0] = 1;
    references[1] = "ab";
    primitives[2] = 3;
    references[4] = new byte[] {1};
    primitives[5] = 1;
    SampleRow first = T.newRow(primitives, references);
    assertThat(first).isEqualTo(new SampleRow(1, "ab", 3, null, first.blob(), true));
    assertThat(first.blob()).containsExactly(1);
    primitives[0] = -5_000_000_000L;
    references[1] = null;
    primitives[2] = Integer.MIN_VALUE;
    references[3] = 42L;
    references[4] = null;
    primitives[5] = 0;
    assertThat(T.newRow(primitives, references))
        .isEqualTo(new SampleRow(-5_000_000_000L, null, Integer.MIN_VALUE, 42L, null, false));
  }

  @Test
  void keysAreValuesNormalizedToTheColumnType() {
    SampleRow row = new SampleRow(7, "ab", 3, null, null, false);
    Key k = T.keyOf(row);
    assertThat(k)
        .isEqualTo(T.key(7L, "ab"))
        .isEqualTo(T.key(7, "ab"))
        .hasSameHashCodeAs(T.key(7, "ab"));
    assertThat(k.value(0)).isEqualTo(7L);
    assertThat(k.size()).isEqualTo(2);
    assertThat(k.table()).isSameAs(T);
    assertThat(k).isNotEqualTo(T.key(7L, "aB")).isNotEqualTo(T.key(7L, "ab "));
    assertThat(k.toString()).isEqualTo("samples[7, ab]");
    assertThatThrownBy(() -> T.key(7L)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void byteArrayKeysCompareByContent() {
    Table<RetryCacheRow> t = RetryCacheRow.TABLE;
    Key a = t.key(new byte[] {1, 2}, 5);
    Key b = t.key(new byte[] {1, 2}, 5);
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(t.key(new byte[] {1, 2, 0}, 5));
  }

  @Test
  void keysOfDifferentTablesDiffer() {
    assertThat(InodeRow.TABLE.key(1L, 1L, "a")).isNotEqualTo(T.key(1L, "a"));
  }

  @Test
  void validateAcceptsValuesUpToTheLimitInUtf8Bytes() throws Exception {
    T.validate(new SampleRow(1, "abcd", 0, null, new byte[3], false));
    T.validate(new SampleRow(1, "é€".substring(0, 1) + "ab", 0, null, null, false));
    T.validate(new SampleRow(1, "", 0, null, new byte[0], false));
  }

  @Test
  void validateRefusesAStringOverItsLimitInBytesNotCharacters() {
    // 2 characters but 5 bytes of UTF-8: the limit counts bytes.
    assertThatThrownBy(() -> T.validate(new SampleRow(1, "é€", 0, null, null, false)))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("samples.short_name")
        .hasMessageContaining("4 bytes");
    assertThatThrownBy(() -> T.validate(new SampleRow(1, "abcde", 0, null, null, false)))
        .hasMessageContaining("samples.short_name");
  }

  @Test
  void validateRefusesAByteArrayOverItsLimit() {
    assertThatThrownBy(() -> T.validate(new SampleRow(1, "a", 0, null, new byte[4], false)))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("samples.blob");
  }

  @Test
  void validateRefusesANullKeyString() {
    assertThatThrownBy(() -> T.validate(new SampleRow(1, null, 0, null, null, false)))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("samples.short_name")
        .hasMessageContaining("NOT NULL");
  }

  @Test
  void everyTableOfTheSchemaIsPartitionedWithItsPartitionColumnInTheKey() {
    Set<String> names = new HashSet<>();
    for (Table<?> t : Tables.ALL) {
      assertThat(names.add(t.name())).as("unique name %s", t).isTrue();
      assertThat(Tables.byName(t.name())).isSameAs(t);
      assertThat(Tables.order(t)).isEqualTo(Tables.ALL.indexOf(t));
      assertThat(t.partitionColumn()).as("partition column of %s", t).isPresent();
      assertThat(t.partitionColumn().orElseThrow().primaryKey()).isTrue();
      for (Column c : t.columns()) {
        assertThat(c.name()).matches("[a-z][a-z0-9_]*");
        if (SampleRows.sized(c)) {
          assertThat(c.maxBytes()).as("%s.%s", t, c.name()).isPositive();
        }
      }
    }
    assertThat(Tables.ALL).hasSize(44);
    assertThat(Tables.ALL.get(0)).isSameAs(InodeRow.TABLE);
    assertThatThrownBy(() -> Tables.byName("nope")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Tables.order(T)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void sampleRowsHaveExactlyTheirLimits() throws Exception {
    for (Table<?> t : Tables.ALL) {
      checkSamples(t);
    }
    assertThat(List.of(SampleRows.utf8String(10), SampleRows.utf8String(13)))
        .containsExactly("é€\uD83D\uDE00a", "é€\uD83D\uDE00aéx");
  }

  private static <R extends Record> void checkSamples(Table<R> t) throws Exception {
    t.validate(SampleRows.typical(t, 1));
    t.validate(SampleRows.withNulls(t, 1));
    t.validate(SampleRows.minimum(t));
    t.validate(SampleRows.maximum(t));
    for (Column c : t.columns()) {
      if (SampleRows.sized(c)) {
        assertThatThrownBy(() -> t.validate(SampleRows.oneByteOver(t, c)))
            .hasMessageContaining(t.name() + "." + c.name());
      }
    }
  }
}
