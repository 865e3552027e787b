package io.tributary.expr;

import static io.tributary.expr.Records.eval;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import org.junit.jupiter.api.Test;

class ExpressionsTest {
  @Test
  void literals() {
    assertThat(eval("42")).isEqualTo(42L);
    assertThat(eval("-42")).isEqualTo(-42L);
    assertThat(eval("1.5")).isEqualTo(1.5);
    assertThat(eval("1e3")).isEqualTo(1000.0);
    assertThat(eval("'it''s'")).isEqualTo("it's");
    assertThat(eval("TRUE")).isEqualTo(true);
    assertThat(eval("false")).isEqualTo(false);
    assertThat(eval("NULL")).isNull();
    assertThat(eval("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void fieldsMatchExactlyAndQuotedIdentifiersKeepCase() {
    assertThat(eval("Price", "Price", 5L, "price", 7L)).isEqualTo(5L);
    assertThat(eval("price", "Price", 5L, "price", 7L)).isEqualTo(7L);
    assertThat(eval("\"timestamp\" + 1", "timestamp", 10L)).isEqualTo(11L);
    assertThat(eval("`my field` * 2", "my field", 4L)).isEqualTo(8L);
    assertThat(eval("missing", "a", 1L)).isNull();
  }

  @Test
  void aQualifiedNameReadsTheFieldOfThatWholeName() {
    assertThat(eval("r.price - l.price", "l.price", 5L, "r.price", 7L, "price", 1L)).isEqualTo(2L);
    assertThat(eval("r.\"user\" || l.value", "r.user", "a", "l.value", "b")).isEqualTo("ab");
    assertThat(eval("\"r.user\"", "r.user", "a")).isEqualTo("a");
    assertThat(Expressions.referencedFields("l.id = r.auction AND r.price > 1"))
        .containsExactly("l.id", "r.auction", "r.price");
  }

  @Test
  void arithmeticKeepsBigintAndWidensToDouble() {
    assertThat(eval("a + b", "a", 2L, "b", 3L)).isEqualTo(5L);
    assertThat(eval("a - 5", "a", 2L)).isEqualTo(-3L);
    assertThat(eval("a * 0.5", "a", 3L)).isEqualTo(1.5);
    assertThat(eval("7 / a", "a", 2L)).isEqualTo(3L);
    assertThat(eval("-7 / a", "a", 2L)).isEqualTo(-3L);
    assertThat(eval("a / 2.0", "a", 7L)).isEqualTo(3.5);
    assertThat(eval("a % 3", "a", -7L)).isEqualTo(-1L);
    assertThat(eval("mod(a, 3)", "a", 7L)).isEqualTo(1L);
    assertThat(eval("-a", "a", 7L)).isEqualTo(-7L);
    assertThat(eval("2 * a", "a", 1.25)).isEqualTo(2.5);
    assertThat(eval("1 - a", "a", 3L)).isEqualTo(-2L);
    assertThat(eval("(a + 1) * (b - 1)", "a", 1L, "b", 4L)).isEqualTo(6L);
  }

  @Test
  void integerAndFloatValuesAreAcceptedDefensively() {
    assertThat(eval("a + 1", "a", 2)).isEqualTo(3L);
    assertThat(eval("a + 1", "a", 0.5f)).isEqualTo(1.5);
    assertThat(eval("a = 2", "a", 2)).isEqualTo(true);
    assertThat(eval("a IN (2, 3)", "a", 3)).isEqualTo(true);
  }

  @Test
  void comparisons() {
    assertThat(eval("a > 1000", "a", 1001L)).isEqualTo(true);
    assertThat(eval("a > 1000", "a", 1000L)).isEqualTo(false);
    assertThat(eval("1000 < a", "a", 1001L)).isEqualTo(true);
    assertThat(eval("a >= 2.5", "a", 3L)).isEqualTo(true);
    assertThat(eval("a = b", "a", 2L, "b", 2.0)).isEqualTo(true);
    assertThat(eval("a <> 2", "a", 2L)).isEqualTo(false);
    assertThat(eval("a != 3", "a", 2L)).isEqualTo(true);
    assertThat(eval("a <= b", "a", "abc", "b", "abd")).isEqualTo(true);
    assertThat(eval("a < 'B'", "a", "a")).isEqualTo(false);
    assertThat(eval("a = TRUE", "a", true)).isEqualTo(true);
    assertThat(eval("FALSE < a", "a", true)).isEqualTo(true);
  }

  @Test
  void logicIsThreeValued() {
    assertThat(eval("a AND b", "a", true, "b", null)).isNull();
    assertThat(eval("a AND b", "a", false, "b", null)).isEqualTo(false);
    assertThat(eval("a AND b", "a", null, "b", false)).isEqualTo(false);
    assertThat(eval("a OR b", "a", null, "b", true)).isEqualTo(true);
    assertThat(eval("a OR b", "a", null, "b", false)).isNull();
    assertThat(eval("a OR b OR c", "a", false, "b", false, "c", true)).isEqualTo(true);
    assertThat(eval("NOT a", "a", null)).isNull();
    assertThat(eval("NOT a", "a", false)).isEqualTo(true);
  }

  @Test
  void andOrShortCircuit() {
    assertThat(eval("a <> 0 AND 10 / a > 1", "a", 0L)).isEqualTo(false);
    assertThat(eval("a = 0 OR 10 / a > 1", "a", 0L)).isEqualTo(true);
  }

  @Test
  void isPredicates() {
    assertThat(eval("a IS NULL", "a", null)).isEqualTo(true);
    assertThat(eval("a IS NOT NULL", "a", null)).isEqualTo(false);
    assertThat(eval("a IS TRUE", "a", null)).isEqualTo(false);
    assertThat(eval("a IS NOT TRUE", "a", null)).isEqualTo(true);
    assertThat(eval("a IS FALSE", "a", false)).isEqualTo(true);
    assertThat(eval("a IS NOT FALSE", "a", null)).isEqualTo(true);
    assertThat(eval("a > 1 IS TRUE", "a", 2L)).isEqualTo(true);
  }

  @Test
  void betweenAndIn() {
    assertThat(eval("a BETWEEN 1 AND 3", "a", 3L)).isEqualTo(true);
    assertThat(eval("a BETWEEN 1 AND 3", "a", 3.5)).isEqualTo(false);
    assertThat(eval("a NOT BETWEEN 1 AND 3", "a", 0L)).isEqualTo(true);
    assertThat(eval("a BETWEEN 3 AND 1", "a", 2L)).isEqualTo(false);
    assertThat(eval("a BETWEEN SYMMETRIC 3 AND 1", "a", 2L)).isEqualTo(true);
    assertThat(eval("a BETWEEN 1 AND b", "a", 2L, "b", null)).isNull();
    assertThat(eval("a IN (1, 2, 3)", "a", 2L)).isEqualTo(true);
    assertThat(eval("a IN (1, 2.5)", "a", 2.5)).isEqualTo(true);
    assertThat(eval("a IN (1.0, 2)", "a", 1L)).isEqualTo(true);
    assertThat(eval("a IN (1, -2)", "a", -2L)).isEqualTo(true);
    assertThat(eval("a IN ('x', 'y')", "a", "z")).isEqualTo(false);
    assertThat(eval("a IN (1, NULL)", "a", 2L)).isNull();
    assertThat(eval("a IN (1, NULL)", "a", 1L)).isEqualTo(true);
    assertThat(eval("a NOT IN (1, 2)", "a", 3L)).isEqualTo(true);
    assertThat(eval("a NOT IN (1, NULL)", "a", 3L)).isNull();
    assertThat(eval("a IN (1, 2)", "a", null)).isNull();
  }

  @Test
  void like() {
    assertThat(eval("s LIKE 'ab%'", "s", "abc")).isEqualTo(true);
    assertThat(eval("s LIKE '%bc'", "s", "abc")).isEqualTo(true);
    assertThat(eval("s LIKE '%b%'", "s", "abc")).isEqualTo(true);
    assertThat(eval("s LIKE 'abc'", "s", "abc")).isEqualTo(true);
    assertThat(eval("s LIKE 'a_c'", "s", "abc")).isEqualTo(true);
    assertThat(eval("s LIKE 'a_c'", "s", "abbc")).isEqualTo(false);
    assertThat(eval("s LIKE 'a%c%e'", "s", "a\nbcde")).isEqualTo(true);
    assertThat(eval("s LIKE '1!%%' ESCAPE '!'", "s", "1%x")).isEqualTo(true);
    assertThat(eval("s LIKE '1!%%' ESCAPE '!'", "s", "12x")).isEqualTo(false);
    assertThat(eval("s LIKE 'a.*'", "s", "abc")).isEqualTo(false);
    assertThat(eval("s NOT LIKE 'a%'", "s", "abc")).isEqualTo(false);
    assertThat(eval("s LIKE p", "s", "abc", "p", "_b_")).isEqualTo(true);
    assertThat(eval("s LIKE 'a%'", "s", null)).isNull();
  }

  @Test
  void caseWhen() {
    String sql = "CASE WHEN a > 10 THEN 'big' WHEN a > 5 THEN 'medium' ELSE 'small' END";
    assertThat(eval(sql, "a", 11L)).isEqualTo("big");
    assertThat(eval(sql, "a", 6L)).isEqualTo("medium");
    assertThat(eval(sql, "a", null)).isEqualTo("small");
    assertThat(eval("CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END", "a", 2L)).isEqualTo("two");
    assertThat(eval("CASE a WHEN 1 THEN 'one' END", "a", 3L)).isNull();
    assertThat(eval("CASE WHEN a THEN 1 ELSE 2.5 END", "a", true)).isEqualTo(1.0);
    assertThat(eval("CASE WHEN a <> 0 THEN 10 / a ELSE 0 END", "a", 0L)).isEqualTo(0L);
  }

  @Test
  void casts() {
    assertThat(eval("CAST(a AS BIGINT)", "a", 2.9)).isEqualTo(2L);
    assertThat(eval("CAST(a AS BIGINT)", "a", -2.9)).isEqualTo(-2L);
    assertThat(eval("CAST(a AS INTEGER)", "a", " 12 ")).isEqualTo(12L);
    assertThat(eval("CAST(a AS DOUBLE)", "a", 3L)).isEqualTo(3.0);
    assertThat(eval("CAST(a AS DECIMAL(10, 2))", "a", "1.25")).isEqualTo(1.25);
    assertThat(eval("CAST(a AS VARCHAR)", "a", 12L)).isEqualTo("12");
    assertThat(eval("CAST(a AS VARCHAR(3))", "a", true)).isEqualTo("TRUE");
    assertThat(eval("CAST(a AS BOOLEAN)", "a", "False")).isEqualTo(false);
    assertThat(eval("CAST(a AS BOOLEAN)", "a", 2L)).isEqualTo(true);
    assertThat(eval("CAST(a AS BIGINT)", "a", null)).isNull();
    assertThat(eval("CAST(a AS VARCHAR) || 'x'", "a", 1L)).isEqualTo("1x");
  }

  @Test
  void stringFunctions() {
    assertThat(eval("a || '-' || b", "a", "x", "b", "y")).isEqualTo("x-y");
    assertThat(eval("CONCAT(a, 'b', 'c')", "a", "a")).isEqualTo("abc");
    assertThat(eval("a || b", "a", "x", "b", null)).isNull();
    assertThat(eval("UPPER(s)", "s", "aBc")).isEqualTo("ABC");
    assertThat(eval("lower(s)", "s", "aBc")).isEqualTo("abc");
    assertThat(eval("CHAR_LENGTH(s)", "s", "abc")).isEqualTo(3L);
    assertThat(eval("CHARACTER_LENGTH(s)", "s", "")).isEqualTo(0L);
    assertThat(eval("SUBSTRING(s FROM 2)", "s", "hello")).isEqualTo("ello");
    assertThat(eval("SUBSTRING(s FROM 2 FOR 3)", "s", "hello")).isEqualTo("ell");
    assertThat(eval("SUBSTRING(s FROM 0 FOR 2)", "s", "hello")).isEqualTo("h");
    assertThat(eval("SUBSTRING(s FROM 4 FOR 10)", "s", "hello")).isEqualTo("lo");
    assertThat(eval("SUBSTRING(s FROM 9)", "s", "hello")).isEqualTo("");
    assertThat(eval("TRIM(s)", "s", "  a b  ")).isEqualTo("a b");
    assertThat(eval("TRIM(LEADING 'x' FROM s)", "s", "xxaxx")).isEqualTo("axx");
    assertThat(eval("TRIM(TRAILING 'xy' FROM s)", "s", "xaxyyx")).isEqualTo("xa");
  }

  @Test
  void numericFunctions() {
    assertThat(eval("ABS(a)", "a", -3L)).isEqualTo(3L);
    assertThat(eval("ABS(a)", "a", -3.5)).isEqualTo(3.5);
    assertThat(eval("FLOOR(a)", "a", -3.5)).isEqualTo(-4.0);
    assertThat(eval("CEIL(a)", "a", 3.2)).isEqualTo(4.0);
    assertThat(eval("FLOOR(a)", "a", 3L)).isEqualTo(3L);
    assertThat(eval("ROUND(a)", "a", 2.5)).isEqualTo(3.0);
    assertThat(eval("ROUND(a)", "a", -2.5)).isEqualTo(-3.0);
    assertThat(eval("ROUND(a, 2)", "a", 1.005)).isEqualTo(1.01);
    assertThat(eval("ROUND(a, -2)", "a", 1250L)).isEqualTo(1300L);
    assertThat(eval("COALESCE(a, b, 0)", "a", null, "b", 5L)).isEqualTo(5L);
    assertThat(eval("COALESCE(a, b)", "a", null, "b", null)).isNull();
    assertThat(eval("COALESCE(a, 1 / 0)", "a", 1L)).isEqualTo(1L);
    assertThat(eval("GREATEST(a, b, 3)", "a", 1L, "b", 7L)).isEqualTo(7L);
    assertThat(eval("GREATEST(a, 2.5)", "a", 3L)).isEqualTo(3.0);
    assertThat(eval("LEAST(a, b)", "a", "x", "b", "b")).isEqualTo("b");
    assertThat(eval("LEAST(a, b)", "a", 1L, "b", null)).isNull();
  }

  @Test
  void nullPropagates() {
    String[] sqls = {"a + 1", "a * 2.5", "-a", "a > 1", "a = 'x'", "UPPER(a)", "a || 'x'",
        "CHAR_LENGTH(a)", "ABS(a)", "ROUND(a, 1)", "CAST(a AS DOUBLE)", "SUBSTRING(a FROM 1)",
        "a BETWEEN 1 AND 2", "a LIKE 'x'", "NOT a"};
    for (String sql : sqls) {
      assertThat(eval(sql, "a", null)).as(sql).isNull();
    }
  }

  @Test
  void testIsTrueOnlyForTrue() {
    CompiledExpression e = Expressions.compile("a > 1");
    assertThat(e.test(Records.of("a", 2L))).isTrue();
    assertThat(e.test(Records.of("a", 1L))).isFalse();
    assertThat(e.test(Records.of("a", null))).isFalse();
  }

  @Test
  void fieldPositionsAreCachedPerSchemaAndRebound() {
    CompiledExpression e = Expressions.compile("price * 2 + qty");
    Record first = new Record(Schema.of("price", "qty"), new Object[] {10L, 1L}, 0);
    Record second = new Record(Schema.of("qty", "x", "price"), new Object[] {3L, "y", 100L}, 0);
    Record third = new Record(Schema.of("price"), new Object[] {5L}, 0);
    assertThat(e.eval(first)).isEqualTo(21L);
    assertThat(e.eval(second)).isEqualTo(203L);
    assertThat(e.eval(first)).isEqualTo(21L);
    assertThat(e.eval(third)).isNull();
    assertThat(e.eval(second)).isEqualTo(203L);
  }

  @Test
  void compileReturnsFreshInstances() {
    assertThat(Expressions.compile("a + 1")).isNotSameAs(Expressions.compile("a + 1"));
  }

  @Test
  void compilesConcurrentlyIntoIndependentInstances() throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      java.util.List<java.util.concurrent.Future<Object>> results = new java.util.ArrayList<>();
      for (int i = 0; i < 8; i++) {
        long n = i;
        results.add(pool.submit(() -> Expressions.compile("n * 10 + 1").eval(Records.of("n", n))));
      }
      for (int i = 0; i < 8; i++) {
        assertThat(results.get(i).get()).isEqualTo(i * 10L + 1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void referencedFields() {
    assertThat(Expressions.referencedFields("a + b * a > \"C d\" AND UPPER(e) LIKE 'x%'"))
        .containsExactly("a", "b", "C d", "e");
    assertThat(Expressions.referencedFields("1 + 2")).isEmpty();
  }
}
