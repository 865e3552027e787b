package io.tributary.plan;

import java.util.Map;

/**
 * Stateless per-record work: an optional filter, then an optional projection.
 *
 * @param filter a SQL boolean expression; null keeps every record
 * @param select output field name to SQL expression, in output order; null passes records through
 */
public record TransformPlan(String id, String filter, Map<String, String> select) implements OperatorPlan {}
