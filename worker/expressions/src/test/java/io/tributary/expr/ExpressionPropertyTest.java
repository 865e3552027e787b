package io.tributary.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Algebraic properties over seeded random values (the seed is in every failure message). */
class ExpressionPropertyTest {
  private static final Schema AB = Schema.of("a", "b");
  private final long seed = System.nanoTime();
  private final Random random = new Random(seed);

  private Record ab(Object a, Object b) {
    return new Record(AB, new Object[] {a, b}, Record.NO_TIMESTAMP);
  }

  private Object number() {
    switch (random.nextInt(5)) {
      case 0:
        return null;
      case 1:
        return random.nextDouble() * 2000 - 1000;
      case 2:
        return (double) (random.nextInt(21) - 10);
      default:
        return (long) (random.nextInt(2001) - 1000);
    }
  }

  @Test
  void integerDivisionTruncatesAndRemainderCompletesIt() {
    CompiledExpression identity = Expressions.compile("(a / b) * b + a % b = a");
    CompiledExpression quotient = Expressions.compile("a / b");
    for (int i = 0; i < 2000; i++) {
      long a = random.nextLong() >> random.nextInt(64);
      long b = (random.nextLong() >> random.nextInt(64)) | 1;
      Record r = ab(a, b);
      assertThat(identity.eval(r)).as("seed %d: a=%d b=%d", seed, a, b).isEqualTo(true);
      assertThat(quotient.eval(r)).as("seed %d: a=%d b=%d", seed, a, b).isEqualTo(a / b);
    }
  }

  @Test
  void comparisonsAreConsistentAcrossTypes() {
    CompiledExpression lt = Expressions.compile("a < b");
    CompiledExpression eq = Expressions.compile("a = b");
    CompiledExpression gt = Expressions.compile("a > b");
    CompiledExpression ge = Expressions.compile("a >= b");
    for (int i = 0; i < 2000; i++) {
      Object a = number();
      Object b = number();
      Record r = ab(a, b);
      String why = "seed " + seed + ": a=" + a + " b=" + b;
      if (a == null || b == null) {
        assertThat(new Object[] {lt.eval(r), eq.eval(r), gt.eval(r)}).as(why).containsOnlyNulls();
        continue;
      }
      double x = ((Number) a).doubleValue();
      double y = ((Number) b).doubleValue();
      assertThat(lt.eval(r)).as(why).isEqualTo(x < y);
      assertThat(eq.eval(r)).as(why).isEqualTo(x == y);
      assertThat(gt.eval(r)).as(why).isEqualTo(x > y);
      assertThat(ge.eval(r)).as(why).isEqualTo(!(Boolean) lt.eval(r));
    }
  }

  @Test
  void arithmeticTypesFollowOperands() {
    CompiledExpression sum = Expressions.compile("a + b");
    CompiledExpression product = Expressions.compile("a * b");
    for (int i = 0; i < 2000; i++) {
      Object a = number();
      Object b = number();
      Record r = ab(a, b);
      String why = "seed " + seed + ": a=" + a + " b=" + b;
      if (a == null || b == null) {
        assertThat(sum.eval(r)).as(why).isNull();
      } else if (a instanceof Long && b instanceof Long) {
        assertThat(sum.eval(r)).as(why).isEqualTo((Long) a + (Long) b);
        assertThat(product.eval(r)).as(why).isEqualTo((Long) a * (Long) b);
      } else {
        double x = ((Number) a).doubleValue();
        double y = ((Number) b).doubleValue();
        assertThat(sum.eval(r)).as(why).isEqualTo(x + y);
        assertThat(product.eval(r)).as(why).isEqualTo(x * y);
      }
    }
  }

  @Test
  void threeValuedLogicKeepsDeMorgan() {
    Boolean[] values = {Boolean.TRUE, Boolean.FALSE, null};
    CompiledExpression left = Expressions.compile("NOT (a AND b)");
    CompiledExpression right = Expressions.compile("NOT a OR NOT b");
    CompiledExpression left2 = Expressions.compile("NOT (a OR b)");
    CompiledExpression right2 = Expressions.compile("NOT a AND NOT b");
    for (Boolean a : values) {
      for (Boolean b : values) {
        Record r = ab(a, b);
        assertThat(left.eval(r)).as("a=%s b=%s", a, b).isEqualTo(right.eval(r));
        assertThat(left2.eval(r)).as("a=%s b=%s", a, b).isEqualTo(right2.eval(r));
      }
    }
  }

  @Test
  void likeShortcutsAgreeWithTheRegexPath() {
    CompiledExpression fast = Expressions.compile("a LIKE b");
    CompiledExpression regex = Expressions.compile("a LIKE b ESCAPE '#'");
    String alphabet = "ab%_";
    for (int i = 0; i < 3000; i++) {
      String s = randomString("ab.", 6);
      String p = randomString(alphabet, 5);
      Record r = ab(s, p);
      assertThat(fast.eval(r)).as("seed %d: '%s' LIKE '%s'", seed, s, p).isEqualTo(regex.eval(r));
      for (String shaped : new String[] {"%" + s, s + "%", "%" + s + "%"}) {
        Record exact = ab(s, shaped.replace("_", ""));
        assertThat(fast.eval(exact)).as("seed %d: '%s' LIKE '%s'", seed, s, shaped).isEqualTo(true);
      }
    }
  }

  private String randomString(String alphabet, int maxLength) {
    StringBuilder sb = new StringBuilder();
    for (int n = random.nextInt(maxLength + 1); n > 0; n--) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }
}
