package io.tributary.scheduler.spec.sql.internal;

import io.tributary.scheduler.spec.sql.internal.parser.SqlCreateStreamView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * The tables and views a SQL job declares, as Calcite's catalog, and the validators that check
 * its queries against them.
 */
final class Catalog {
  final JavaTypeFactoryImpl types = new JavaTypeFactoryImpl(TributaryTypeSystem.INSTANCE);
  private final CalciteSchema root = CalciteSchema.createRootSchema(false, false);
  private final CalciteCatalogReader reader;
  private final Map<String, TableDef> tables = new LinkedHashMap<>();
  private final Map<String, StreamView> views = new LinkedHashMap<>();
  private final String text;

  /** @param text the job's SQL text (views are parsed again from it) */
  Catalog(String text) {
    this.text = text;
    Properties props = new Properties();
    props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
    this.reader = new CalciteCatalogReader(root, List.of(), types, new CalciteConnectionConfigImpl(props));
  }

  CalciteCatalogReader reader() {
    return reader;
  }

  /** The declared tables, by name, in declaration order. */
  Map<String, TableDef> tables() {
    return tables;
  }

  /** Whether a table or view of that name is declared. */
  boolean declares(String name) {
    return tables.containsKey(name) || views.containsKey(name);
  }

  void add(TableDef def) {
    tables.put(def.name(), def);
    root.add(def.name(), new StreamTable(def));
  }

  /**
   * Validates a view's query against what is declared so far and declares the view.
   *
   * @throws SqlProblem if the query is invalid
   */
  void add(SqlCreateStreamView view) {
    String name = Names.simple(view.name(), "a view's name");
    SqlValidator validator = validator();
    SqlNode query = validate(validator, view.query());
    RelDataType rowType = validator.getValidatedNodeType(query);
    if (view.columns() != null) {
      rowType = renamed(view, rowType);
    }
    StreamView table = new StreamView(name, rowType, Texts.only(text, view.query().getParserPosition()));
    views.put(name, table);
    root.add(name, table);
  }

  private RelDataType renamed(SqlCreateStreamView view, RelDataType rowType) {
    List<String> names = new ArrayList<>();
    for (SqlNode c : view.columns()) {
      names.add(c.toString());
    }
    if (names.size() != rowType.getFieldCount()) {
      throw new SqlProblem(view.columns().getParserPosition(), "the view names " + names.size() + " columns but its "
          + "query has " + rowType.getFieldCount());
    }
    RelDataTypeFactory.Builder b = types.builder();
    List<RelDataTypeField> fields = rowType.getFieldList();
    for (int i = 0; i < names.size(); i++) {
      b.add(names.get(i), fields.get(i).getType());
    }
    return b.build();
  }

  /**
   * A validator over this catalog (one per statement: validation changes the statement). Types are
   * not coerced: a column of one type is not written to a column of another, nor compared with a
   * string, without a CAST.
   */
  SqlValidator validator() {
    SqlValidator.Config config = SqlValidator.Config.DEFAULT
        .withConformance(Conformance.INSTANCE)
        .withTypeCoercionEnabled(false)
        .withIdentifierExpansion(true);
    return SqlValidatorUtil.newValidator(TributaryOperators.TABLE, reader, types, config);
  }

  /**
   * {@code node} validated.
   *
   * @throws SqlProblem naming what is wrong and where
   */
  static SqlNode validate(SqlValidator validator, SqlNode node) {
    try {
      return validator.validate(node);
    } catch (CalciteContextException e) {
      String why = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
          : e.getMessage();
      throw new SqlProblem(new org.apache.calcite.sql.parser.SqlParserPos(e.getPosLine(), e.getPosColumn()), why);
    } catch (RuntimeException e) {
      throw new SqlProblem(node.getParserPosition(), "cannot validate the statement: " + e.getMessage());
    }
  }
}
