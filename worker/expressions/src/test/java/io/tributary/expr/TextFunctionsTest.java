package io.tributary.expr;

import static io.tributary.expr.Records.eval;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Flink SQL's string functions that Nexmark's queries use. */
class TextFunctionsTest {
  private static final String URL = "https://www.nexmark.com/abc/def/item.htm?query=1&channel_id=1234";

  @Test
  void replaceReplacesEveryOccurrence() {
    assertThat(eval("REPLACE(s, 'c', '')", "s", "abcabc")).isEqualTo("abab");
    assertThat(eval("CHAR_LENGTH(s) - CHAR_LENGTH(REPLACE(s, 'c', ''))", "s", "cacbc")).isEqualTo(3L);
    assertThat(eval("REPLACE(s, 'c', '')", "s", null)).isNull();
  }

  @Test
  void regexpExtractTakesAGroupOfTheFirstMatch() {
    assertThat(eval("REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)", "url", URL)).isEqualTo("1234");
    assertThat(eval("REGEXP_EXTRACT(url, 'channel_id=[0-9]+')", "url", URL)).isEqualTo("channel_id=1234");
    assertThat(eval("REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)", "url", "https://x/y")).isNull();
    assertThatThrownBy(() -> eval("REGEXP_EXTRACT(url, '(a)', 2)", "url", "a"))
        .isInstanceOf(ExpressionException.class).hasMessageContaining("group 2 does not exist");
  }

  @Test
  void splitIndexCountsPartsFromZeroAndKeepsEmptyOnes() {
    assertThat(eval("SPLIT_INDEX(url, '/', 3)", "url", URL)).isEqualTo("abc");
    assertThat(eval("SPLIT_INDEX(url, '/', 1)", "url", URL)).isEqualTo("");
    assertThat(eval("SPLIT_INDEX(url, '/', 9)", "url", URL)).isNull();
    assertThat(eval("SPLIT_INDEX(url, '/', -1)", "url", URL)).isNull();
  }

  @Test
  void dateFormatWritesEpochMillisecondsInUtc() {
    assertThat(eval("DATE_FORMAT(ts, 'yyyy-MM-dd')", "ts", 1_767_225_600_000L)).isEqualTo("2026-01-01");
    assertThat(eval("DATE_FORMAT(ts, 'HH:mm')", "ts", 1_767_225_600_000L + 3_723_000L)).isEqualTo("01:02");
    assertThat(eval("DATE_FORMAT(ts, 'yyyy-MM-dd')", "ts", null)).isNull();
  }

  @Test
  void operandsOfTheWrongTypeAreRefusedWhenKnown() {
    assertThatThrownBy(() -> Expressions.validate("SPLIT_INDEX('a/b', '/', 'x')"))
        .isInstanceOf(ExpressionException.class).hasMessageContaining("SPLIT_INDEX needs a number");
    assertThatThrownBy(() -> Expressions.validate("DATE_FORMAT('2026', 'yyyy')"))
        .isInstanceOf(ExpressionException.class).hasMessageContaining("DATE_FORMAT needs a number");
  }
}
