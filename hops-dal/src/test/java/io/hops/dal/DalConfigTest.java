package io.hops.dal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DalConfigTest {

  @Test
  void defaultsComeFromHopsConfig() {
    DalConfig c = DalConfig.of(Map.of());
    assertThat(c.engine()).isEqualTo(HopsConfig.METADATA_ENGINE_DEFAULT);
    assertThat(c.lockWaitTimeoutMillis()).isEqualTo(HopsConfig.LOCK_WAIT_TIMEOUT_MS_DEFAULT);
    assertThat(c.poolSize()).isEqualTo(HopsConfig.POOL_SIZE_DEFAULT);
  }

  @Test
  void embeddedInMemoryNamesAStoreAndWithAddsSettingsToACopy() {
    DalConfig c = DalConfig.embeddedInMemory("t1");
    DalConfig d = c.with(HopsConfig.LOCK_WAIT_TIMEOUT_MS, 1000);
    assertThat(c.get(HopsConfig.EMBEDDED_DIR, null)).isEqualTo("mem:t1");
    assertThat(d.get(HopsConfig.EMBEDDED_DIR, null)).isEqualTo("mem:t1");
    assertThat(d.lockWaitTimeoutMillis()).isEqualTo(1000);
    assertThat(c.lockWaitTimeoutMillis()).isEqualTo(HopsConfig.LOCK_WAIT_TIMEOUT_MS_DEFAULT);
    assertThat(d.engine()).isEqualTo("embedded");
  }

  @Test
  void requireRefusesAMissingOrBlankSettingNamingIt() throws Exception {
    DalConfig c = DalConfig.of(Map.of(HopsConfig.JDBC_USER, " "));
    assertThatThrownBy(() -> c.require(HopsConfig.JDBC_URL))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining(HopsConfig.JDBC_URL);
    assertThatThrownBy(() -> c.require(HopsConfig.JDBC_USER))
        .hasMessageContaining(HopsConfig.JDBC_USER);
    assertThat(c.with(HopsConfig.JDBC_URL, "jdbc:x").require(HopsConfig.JDBC_URL))
        .isEqualTo("jdbc:x");
  }

  @Test
  void toStringHidesThePassword() {
    DalConfig c =
        DalConfig.of(Map.of(HopsConfig.JDBC_PASSWORD, "secret", HopsConfig.JDBC_USER, "u"));
    assertThat(c.toString()).doesNotContain("secret").contains("***").contains("u");
  }

  @Test
  void anIdRangeEndsOnePastItsLastId() {
    assertThat(new IdRange(1, 5).end()).isEqualTo(6);
  }
}
