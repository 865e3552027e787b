package io.tributary.scheduler.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KeysTest {
  @Test
  void theGroupIsTheFirstTwoSegments() {
    assertThat(Keys.group("projects/default/jobs/auction-activity")).isEqualTo("projects/default");
    assertThat(Keys.group("jobs/7f3a/checkpoints/latest")).isEqualTo("jobs/7f3a");
    assertThat(Keys.group("leases/leader")).isEqualTo("leases/leader");
    assertThat(Keys.group("projects/default/")).isEqualTo("projects/default");
    assertThat(Keys.group("projects/default/jo")).isEqualTo("projects/default");
  }

  @Test
  void prefixesMustNameAWholeGroup() {
    assertThat(Keys.checkPrefix("a/b/")).isEqualTo("a/b/");
    assertThat(Keys.checkPrefix("a/b/c")).isEqualTo("a/b/c");
    for (String bad : new String[] {"a/b", "a/", "a//", "//", "a/ b/"}) {
      assertThatThrownBy(() -> Keys.checkPrefix(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void keysAreBoundedPrintableAscii() {
    assertThat(Keys.check("a/" + "x".repeat(Keys.MAX_KEY_LENGTH - 2))).hasSize(Keys.MAX_KEY_LENGTH);
    assertThatThrownBy(() -> Keys.check("a/" + "x".repeat(Keys.MAX_KEY_LENGTH - 1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Keys.check("a/b\tc")).hasMessageContaining("U+0009");
  }
}
