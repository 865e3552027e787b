package io.tributary.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Job and project names are DNS labels; internal names never collide across projects. */
class JobNamesTest {
  @ParameterizedTest
  @ValueSource(strings = {"a", "auction-activity", "q5", "a--b", "abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefgh"})
  void validJobNamesPass(String name) {
    assertThat(JobNames.checkJob(name)).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Auction", "1job", "-job", "job-", "job_1", "job.1", "jöb", "a b",
      "abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghi"})
  void invalidJobNamesAreRefusedNamingTheField(String name) {
    assertThatThrownBy(() -> JobNames.checkJob(name)).isInstanceOfSatisfying(InvalidRequestException.class, e -> {
      assertThat(e.field()).isEqualTo("name");
      assertThat(e.getMessage()).startsWith("name: ");
      assertThat(e.retryable()).isFalse();
    });
  }

  @Test
  void aProjectNameHoldsNoDoubleDash() {
    assertThat(JobNames.checkProject("team-a")).isEqualTo("team-a");
    assertThatThrownBy(() -> JobNames.checkProject("team--a"))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("project"));
    assertThatThrownBy(() -> JobNames.checkProject("Team"))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("project"));
  }

  @Test
  void internalNamesOfDifferentJobsNeverCollide() {
    Random random = new Random(42);
    Map<String, String> owner = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      String project = randomLabel(random, false);
      String name = randomLabel(random, true);
      String internal = JobNames.internal(project, name);
      String previous = owner.putIfAbsent(internal, project + "/" + name);
      assertThat(previous == null || previous.equals(project + "/" + name))
          .as("%s is the internal name of %s and of %s/%s", internal, previous, project, name).isTrue();
    }
    assertThat(JobNames.internal("a-b", "c")).isNotEqualTo(JobNames.internal("a", "b-c"));
    assertThat(JobNames.internal("a", "b--c")).isEqualTo("a--b--c");
  }

  /** Short labels over a small alphabet rich in '-', so that near-collisions are frequent. */
  private static String randomLabel(Random random, boolean doubleDashes) {
    String alphabet = "ab-";
    while (true) {
      StringBuilder b = new StringBuilder("ab".charAt(random.nextInt(2)) + "");
      int length = random.nextInt(6);
      for (int i = 0; i < length; i++) {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String s = b.toString();
      if (!s.endsWith("-") && (doubleDashes || !s.contains("--"))) {
        return s;
      }
    }
  }
}
