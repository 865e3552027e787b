package io.tributary.expr;

import io.tributary.expr.internal.Analysis;
import io.tributary.expr.internal.ExpressionCompiler;
import java.util.Set;

/**
 * Tributary's SQL expressions: parsed by Apache Calcite's parser, checked, and compiled to JVM
 * bytecode (Janino) for evaluation against {@link io.tributary.stream.Record}s.
 *
 * <h2>Syntax</h2>
 * Identifiers are field names, matched exactly (case-sensitive) against the record's schema; quote
 * them with double quotes or back-quotes (not both styles in one expression) when they are SQL
 * keywords or contain special characters: {@code "timestamp" > 0}. A field missing from a
 * record reads as NULL. A qualified name {@code a.b} reads the field named {@code a.b} (a join
 * names its sides' fields {@code l.price}, {@code r.price}); nested JSON fields are not read, and
 * names of three parts or more are rejected.
 *
 * <h2>Supported</h2>
 * <ul>
 *   <li>literals: integers (BIGINT), decimals and {@code 1e3} (DOUBLE), {@code 'strings'}, TRUE,
 *       FALSE, NULL
 *   <li>{@code + - * / %}, {@code MOD(a, b)}, unary {@code -}
 *   <li>{@code = <> != < <= > >=}, {@code [NOT] BETWEEN [SYMMETRIC]}, {@code [NOT] IN (literals)}
 *   <li>{@code AND OR NOT} (three-valued, short-circuit), {@code IS [NOT] NULL},
 *       {@code IS [NOT] TRUE|FALSE}
 *   <li>{@code [NOT] LIKE pattern [ESCAPE c]}, {@code ||}, CONCAT, UPPER, LOWER, CHAR_LENGTH
 *       (CHARACTER_LENGTH), {@code SUBSTRING(s FROM a [FOR b])}, {@code TRIM([BOTH|LEADING|TRAILING]
 *       [chars] FROM s)}
 *   <li>ABS, FLOOR, CEIL, ROUND(x [, digits]) (half away from zero), COALESCE, GREATEST, LEAST
 *   <li>{@code CASE [x] WHEN .. THEN .. [ELSE ..] END}
 *   <li>{@code CAST(x AS BIGINT|INTEGER|DOUBLE|DECIMAL|VARCHAR|BOOLEAN)} (length and precision are
 *       ignored; DECIMAL is evaluated as DOUBLE)
 * </ul>
 * Anything else (other functions, operators, literal types, subqueries) is rejected by
 * {@link #validate} and {@link #compile} with an {@link ExpressionException} naming it.
 *
 * <h2>Semantics</h2>
 * Runtime values are Long (integral), Double, String, Boolean or null; Integer and Float field
 * values are accepted as Long and Double. NULL propagates through operators and functions
 * (GREATEST/LEAST/CONCAT included). BIGINT op BIGINT stays BIGINT and integer division truncates
 * (as in Flink SQL); BIGINT overflow is an error; any DOUBLE operand makes the result DOUBLE.
 * Numbers compare numerically across BIGINT and DOUBLE, strings lexicographically (UTF-16),
 * FALSE before TRUE. Division or modulo by zero and type mismatches ({@code 'abc' + 1}) are
 * errors: detected by {@link #validate} when the types are known statically, otherwise thrown by
 * evaluation as an {@link ExpressionException} naming the expression and the offending value.
 * String positions and lengths count UTF-16 code units.
 */
public final class Expressions {
  private Expressions() {}

  /**
   * Parses and checks {@code sql}.
   *
   * @throws ExpressionException saying what is wrong (position, token, unsupported function or
   *     statically known type mismatch)
   */
  public static void validate(String sql) {
    Analysis.validate(sql);
  }

  /**
   * Like {@link #validate}, and {@code sql} must be a condition (BOOLEAN, or a field whose type only
   * its records tell), as a filter needs.
   *
   * @throws ExpressionException if it is invalid or statically of another type ({@code value + 1})
   */
  public static void validateCondition(String sql) {
    Analysis.validateCondition(sql);
  }

  /**
   * Parses an aggregate call: {@code count(*)}, {@code count(expr)}, {@code count(DISTINCT expr)},
   * {@code sum(expr)}, {@code min(expr)}, {@code max(expr)}, {@code avg(expr)}, case-insensitive.
   * The argument is returned as the user's SQL text and has been validated. {@code count(expr)}
   * counts non-null values, {@code count(DISTINCT expr)} distinct non-null values.
   *
   * @throws ExpressionException if {@code sql} is not such a call (DISTINCT only in count)
   */
  public static AggregateCall parseAggregate(String sql) {
    return Analysis.parseAggregate(sql);
  }

  /**
   * The record fields the expression reads, in order of first appearance.
   *
   * @throws ExpressionException if the expression is invalid
   */
  public static Set<String> referencedFields(String sql) {
    return Analysis.referencedFields(sql);
  }

  /**
   * Compiles {@code sql} to bytecode. Each call returns a fresh instance, which is <b>not
   * thread-safe</b> (it caches field positions per schema): use one instance per task thread.
   * Compiled classes are cached by expression text, so further calls for the same text are cheap.
   *
   * @throws ExpressionException if the expression is invalid
   */
  public static CompiledExpression compile(String sql) {
    return ExpressionCompiler.compile(sql);
  }
}
