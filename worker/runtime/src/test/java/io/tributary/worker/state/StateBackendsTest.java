package io.tributary.worker.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StateBackendsTest {
  @Test
  void stateCacheEntriesAreAWholeNumberWithAnOptionalThousandOrMillion() {
    assertThat(StateBackends.parseEntries("100000")).isEqualTo(100_000);
    assertThat(StateBackends.parseEntries(" 500k ")).isEqualTo(500_000);
    assertThat(StateBackends.parseEntries("2M")).isEqualTo(2_000_000);
    assertThat(StateBackends.parseEntries("1_000_000")).isEqualTo(1_000_000);
    assertThat(StateBackends.parseEntries("0")).isZero();
  }

  @Test
  void anythingElseIsRefusedNamingTheVariable() {
    for (String bad : new String[] {"lots", "-1", "2g", "", "99999999999999999999m"}) {
      assertThatThrownBy(() -> StateBackends.parseEntries(bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("TRIBUTARY_FORST_STATE_CACHE")
          .hasMessageContaining("'" + bad + "'");
    }
  }

  @Test
  void sizesNameTheVariableTheyCameFrom() {
    assertThat(StateBackends.parseBytes("TRIBUTARY_FORST_BLOCK_CACHE", "64m")).isEqualTo(64L << 20);
    assertThatThrownBy(() -> StateBackends.parseBytes("TRIBUTARY_FORST_BLOCK_CACHE", "big"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TRIBUTARY_FORST_BLOCK_CACHE: 'big' is not a size such as 8g or 512m");
  }
}
