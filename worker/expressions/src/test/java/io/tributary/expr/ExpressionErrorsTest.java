package io.tributary.expr;

import static io.tributary.expr.Records.eval;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExpressionErrorsTest {
  @Test
  void parseErrorsGivePositionAndToken() {
    assertThatThrownBy(() -> Expressions.validate("price >> 3"))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("price >> 3")
        .hasMessageContaining("line 1, column 7");
    assertThatThrownBy(() -> Expressions.validate("a +"))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Encountered");
    assertThatThrownBy(() -> Expressions.validate(" "))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void anUpperCaseReservedWordGetsAQuotingHint() {
    assertThatThrownBy(() -> Expressions.validate("USER = 'ada'"))
        .hasMessageContaining("quote a field of that name: \"USER\"");
  }

  @Test
  void fieldsNamedLikeKeywordsWorkUnquotedUnlessUpperCase() {
    io.tributary.stream.Record r = new io.tributary.stream.Record(
        io.tributary.stream.Schema.of("user", "dateTime", "timestamp", "value"),
        new Object[] {"ada", 5L, 7L, 2L}, io.tributary.stream.Record.NO_TIMESTAMP);
    org.assertj.core.api.Assertions.assertThat(Expressions.compile("user").eval(r)).isEqualTo("ada");
    org.assertj.core.api.Assertions.assertThat(Expressions.compile("dateTime").eval(r)).isEqualTo(5L);
    org.assertj.core.api.Assertions.assertThat(Expressions.compile("timestamp + dateTime * value").eval(r)).isEqualTo(17L);
    org.assertj.core.api.Assertions.assertThat(Expressions.compile("user = 'ada' AND \"value\" > 1").test(r)).isTrue();
    org.assertj.core.api.Assertions.assertThat(Expressions.referencedFields("user || 'x'")).containsExactly("user");
  }

  @Test
  void unsupportedFunctionsAndOperatorsAreNamed() {
    assertThatThrownBy(() -> Expressions.compile("foo(a)"))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("unsupported function FOO");
    assertThatThrownBy(() -> Expressions.validate("a IS DISTINCT FROM b"))
        .hasMessageContaining("unsupported operator IS DISTINCT FROM");
    assertThatThrownBy(() -> Expressions.validate("a SIMILAR TO 'x'"))
        .hasMessageContaining("unsupported operator");
    assertThatThrownBy(() -> Expressions.validate("sum(a) > 1"))
        .hasMessageContaining("aggregate function SUM is not allowed here");
    assertThatThrownBy(() -> Expressions.validate("CURRENT_TIMESTAMP > a"))
        .hasMessageContaining("unsupported function CURRENT_TIMESTAMP");
    assertThatThrownBy(() -> Expressions.validate("POSITION('x' IN a)"))
        .hasMessageContaining("unsupported operator POSITION");
    assertThatThrownBy(() -> Expressions.validate("(SELECT 1)"))
        .hasMessageContaining("unsupported operator SELECT");
    assertThatThrownBy(() -> Expressions.validate("CAST(a AS DATE)"))
        .hasMessageContaining("unsupported CAST target type DATE");
    assertThatThrownBy(() -> Expressions.validate("DATE '2020-01-01'"))
        .hasMessageContaining("unsupported literal");
    assertThatThrownBy(() -> Expressions.validate("a.b.c = 1"))
        .hasMessageContaining("nested field 'a.b.c'");
    assertThatThrownBy(() -> Expressions.validate("a IN (1, b)"))
        .hasMessageContaining("IN list may only contain literals");
    assertThatThrownBy(() -> Expressions.validate("ROUND(a, 1, 2)"))
        .hasMessageContaining("ROUND takes 1 to 2 argument(s), got 3");
    assertThatThrownBy(() -> Expressions.validate("FLOOR(a TO DAY)"))
        .hasMessageContaining("FLOOR ... TO <time unit> is not supported");
  }

  @Test
  void deepNestingIsAClearErrorUpToALimit() {
    assertThat(Records.eval(orChain(90), "x", 89L)).isEqualTo(true);
    assertThatThrownBy(() -> Expressions.validate(orChain(120)))
        .hasMessageContaining("nested too deeply");
    assertThatThrownBy(() -> Expressions.validate(orChain(150)))
        .hasMessageContaining("more than 256 operators");
    assertThatThrownBy(() -> Expressions.validate("x" + " + 1".repeat(2_000)))
        .hasMessageContaining("characters long");
    assertThatThrownBy(() -> Expressions.validate("(".repeat(40) + "x" + ")".repeat(40)))
        .hasMessageContaining("nests parentheses");
    assertThatThrownBy(() -> Expressions.validateCondition("x + 1")).hasMessageContaining("not a condition");
    Expressions.validateCondition("flag");
    Expressions.validateCondition("x > 1 AND y IS NULL");
  }

  private static String orChain(int terms) {
    StringBuilder sb = new StringBuilder("x = 0");
    for (int i = 1; i < terms; i++) {
      sb.append(" OR x = ").append(i);
    }
    return sb.toString();
  }

  @Test
  void staticallyKnownTypeErrorsFailValidation() {
    assertThatThrownBy(() -> Expressions.validate("'abc' + 1"))
        .hasMessageContaining("'+' needs a number, got VARCHAR 'abc'")
        .hasMessageContaining("line 1, column 1");
    assertThatThrownBy(() -> Expressions.validate("a = 'x' AND 1"))
        .hasMessageContaining("AND needs a BOOLEAN, got BIGINT 1");
    assertThatThrownBy(() -> Expressions.validate("a > 1 AND b < 'x' AND 1 = 'x'"))
        .hasMessageContaining("cannot compare BIGINT 1 with VARCHAR 'x'");
    assertThatThrownBy(() -> Expressions.validate("UPPER(1)"))
        .hasMessageContaining("UPPER needs a VARCHAR");
    assertThatThrownBy(() -> Expressions.validate("CASE WHEN a THEN 1 ELSE 'x' END"))
        .hasMessageContaining("incompatible types");
    assertThatThrownBy(() -> Expressions.validate("a IN (1, 'x')"))
        .hasMessageContaining("cannot compare");
    assertThatThrownBy(() -> Expressions.validate("99999999999999999999 + a"))
        .hasMessageContaining("out of BIGINT range");
    assertThatThrownBy(() -> Expressions.validate("s LIKE 'a!' ESCAPE '!'"))
        .hasMessageContaining("ends with the escape character");
  }

  @Test
  void runtimeErrorsNameTheExpressionAndValue() {
    assertThatThrownBy(() -> eval("a + 1", "a", "abc"))
        .isInstanceOf(ExpressionException.class)
        .hasMessage("cannot evaluate `a + 1`: cannot apply '+' to VARCHAR 'abc' and BIGINT 1");
    assertThatThrownBy(() -> eval("a / b", "a", 1L, "b", 0L))
        .hasMessage("cannot evaluate `a / b`: division by zero");
    assertThatThrownBy(() -> eval("a % 0", "a", 1L))
        .hasMessageContaining("division by zero");
    assertThatThrownBy(() -> eval("a / 0.0", "a", 1.5))
        .hasMessageContaining("division by zero");
    assertThatThrownBy(() -> eval("a * 2", "a", Long.MAX_VALUE))
        .hasMessageContaining("BIGINT overflow");
    assertThatThrownBy(() -> eval("a > 1", "a", "x"))
        .hasMessageContaining("cannot apply '>' to VARCHAR 'x' and BIGINT 1");
    assertThatThrownBy(() -> eval("a AND TRUE", "a", 1L))
        .hasMessageContaining("AND needs a BOOLEAN, got BIGINT 1");
    assertThatThrownBy(() -> eval("UPPER(a)", "a", 1L))
        .hasMessageContaining("UPPER needs a VARCHAR, got BIGINT 1");
    assertThatThrownBy(() -> eval("CAST(a AS BIGINT)", "a", "1x"))
        .hasMessageContaining("cannot cast VARCHAR '1x' to BIGINT");
    assertThatThrownBy(() -> eval("CAST(a AS INTEGER)", "a", 1L << 40))
        .hasMessageContaining("to INTEGER");
    assertThatThrownBy(() -> eval("a IN (1, 2)", "a", "x"))
        .hasMessageContaining("IN");
    assertThatThrownBy(() -> eval("SUBSTRING(a FROM 1 FOR -1)", "a", "x"))
        .hasMessageContaining("must not be negative");
  }

  @Test
  void testRejectsNonBooleanConditions() {
    CompiledExpression e = Expressions.compile("a + 1");
    assertThatThrownBy(() -> e.test(Records.of("a", 1L)))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("must be BOOLEAN, got BIGINT 2");
  }
}
