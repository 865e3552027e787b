package io.tributary.scheduler.spec.sql.internal;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Turns validated statements into Calcite's relational plans, views expanded, with every filter
 * and projection merged into calculations ({@code Calc}: a condition and projections over one
 * input), the shape of Tributary's transform operator.
 */
final class RelConversion implements RelOptTable.ViewExpander {
  /**
   * Conditions into joins (a condition on one side to before the join; one of both sides into its
   * condition, where the join's keys and time bounds are found), then filters and projections merged.
   */
  private static final HepProgram NORMALIZE = new HepProgramBuilder()
      .addRuleCollection(List.of(CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH,
          CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_MERGE))
      .addRuleCollection(List.of(CoreRules.FILTER_TO_CALC, CoreRules.PROJECT_TO_CALC, CoreRules.CALC_MERGE,
          CoreRules.CALC_REMOVE))
      .build();

  private final Catalog catalog;
  private final RelOptCluster cluster;

  RelConversion(Catalog catalog) {
    this.catalog = catalog;
    this.cluster = RelOptCluster.create(new VolcanoPlanner(), new RexBuilder(catalog.types));
  }

  RexBuilder rexBuilder() {
    return cluster.getRexBuilder();
  }

  /**
   * The plan of {@code statement}, which {@code validator} validated: columns no one reads dropped
   * as early as possible (so exchanges carry what is used), then normalized.
   */
  RelNode convert(SqlNode statement, SqlValidator validator) {
    SqlToRelConverter converter = converter(validator);
    RelRoot root = converter.convertQuery(statement, false, true);
    RelNode trimmed = converter.trimUnusedFields(true, root.rel);
    HepPlanner hep = new HepPlanner(NORMALIZE);
    hep.setRoot(trimmed);
    return hep.findBestExp();
  }

  private SqlToRelConverter converter(SqlValidator validator) {
    SqlToRelConverter.Config config = SqlToRelConverter.config()
        .withTrimUnusedFields(true)
        .withInSubQueryThreshold(Integer.MAX_VALUE);
    return new SqlToRelConverter(this, validator, catalog.reader(), cluster, StandardConvertletTable.INSTANCE, config);
  }

  @Override
  public RelRoot expandView(RelDataType rowType, String queryString, List<String> schemaPath, List<String> viewPath) {
    SqlValidator validator = catalog.validator();
    SqlNode query = Catalog.validate(validator, SqlParsing.query(queryString));
    return converter(validator).convertQuery(query, false, true);
  }
}
