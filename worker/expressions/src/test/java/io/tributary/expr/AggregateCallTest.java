package io.tributary.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.plan.AggregatePlan.Function;
import org.junit.jupiter.api.Test;

class AggregateCallTest {
  @Test
  void parsesEachFunctionCaseInsensitively() {
    assertThat(Expressions.parseAggregate("count(*)")).isEqualTo(new AggregateCall(Function.COUNT, null));
    assertThat(Expressions.parseAggregate("COUNT( * )")).isEqualTo(new AggregateCall(Function.COUNT, null));
    assertThat(Expressions.parseAggregate("count(bidder)")).isEqualTo(new AggregateCall(Function.COUNT, "bidder"));
    assertThat(Expressions.parseAggregate("Sum(price)")).isEqualTo(new AggregateCall(Function.SUM, "price"));
    assertThat(Expressions.parseAggregate("min(price)")).isEqualTo(new AggregateCall(Function.MIN, "price"));
    assertThat(Expressions.parseAggregate("MAX(price)")).isEqualTo(new AggregateCall(Function.MAX, "price"));
    assertThat(Expressions.parseAggregate("avg(price)")).isEqualTo(new AggregateCall(Function.AVG, "price"));
    assertThat(Expressions.parseAggregate("count(DISTINCT bidder)"))
        .isEqualTo(new AggregateCall(Function.COUNT_DISTINCT, "bidder"));
    assertThat(Expressions.parseAggregate("COUNT(distinct  bidder % 10)"))
        .isEqualTo(new AggregateCall(Function.COUNT_DISTINCT, "bidder % 10"));
  }

  @Test
  void keepsTheArgumentTextAsWritten() {
    assertThat(Expressions.parseAggregate("sum( price * 0.908 )").argument()).isEqualTo("price * 0.908");
    assertThat(Expressions.parseAggregate("max(\"Price\" + (a))").argument()).isEqualTo("\"Price\" + (a)");
    assertThat(Expressions.parseAggregate("sum(CASE WHEN a > 1 THEN 1 ELSE 0 END)").argument())
        .isEqualTo("CASE WHEN a > 1 THEN 1 ELSE 0 END");
  }

  @Test
  void rejectsWhatIsNotASupportedAggregate() {
    assertThatThrownBy(() -> Expressions.parseAggregate("price"))
        .isInstanceOf(ExpressionException.class).hasMessageContaining("not an aggregate call");
    assertThatThrownBy(() -> Expressions.parseAggregate("median(price)"))
        .hasMessageContaining("not an aggregate call");
    assertThatThrownBy(() -> Expressions.parseAggregate("sum(price) + 1"))
        .hasMessageContaining("not an aggregate call");
    assertThatThrownBy(() -> Expressions.parseAggregate("sum(distinct price)"))
        .hasMessageContaining("DISTINCT is supported only in count(DISTINCT x)");
    assertThatThrownBy(() -> Expressions.parseAggregate("count(distinct *)")).hasMessageContaining("cannot parse");
    assertThatThrownBy(() -> Expressions.parseAggregate("count_distinct(price)"))
        .hasMessageContaining("not an aggregate call");
    assertThatThrownBy(() -> Expressions.parseAggregate("sum(*)")).hasMessageContaining("only count accepts *");
    assertThatThrownBy(() -> Expressions.parseAggregate("sum(a, b)")).hasMessageContaining("exactly one argument");
    assertThatThrownBy(() -> Expressions.parseAggregate("sum(foo(a))")).hasMessageContaining("unsupported function FOO");
    assertThatThrownBy(() -> Expressions.parseAggregate("sum(count(a))"))
        .hasMessageContaining("aggregate function COUNT is not allowed here");
  }
}
