package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.scheduler.spec.SpecBudget;
import io.tributary.scheduler.spec.sql.internal.parser.SqlCreateStreamTable;
import io.tributary.scheduler.spec.sql.internal.parser.SqlCreateStreamView;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * Compiles the text of a SQL job into the spec document it means: statements parsed ({@link
 * SqlParsing}), tables and views declared ({@link Catalog}), each INSERT validated by Calcite's
 * validator, turned into a relational plan ({@link RelConversion}) and translated into sources,
 * operators and sinks ({@link Translator}). Every problem is reported with its line and column;
 * the declarations' problems first, then the statements'.
 */
public final class SqlCompiler {
  /**
   * A compiled job.
   *
   * @param document the spec, as JSON
   * @param locator where each part of it comes from
   */
  public record Compiled(ObjectNode document, Locator locator) {}

  private final String text;
  private final Catalog catalog;
  private final SpecDocument doc = new SpecDocument();
  private final Problems problems = new Problems();
  private final List<SqlInsert> inserts = new ArrayList<>();

  private SqlCompiler(String text) {
    this.text = text;
    this.catalog = new Catalog(text);
  }

  /**
   * Compiles {@code text}.
   *
   * @param defaultName the job's name unless a SET names it; null: a SET must
   * @throws io.tributary.scheduler.spec.InvalidSpecException with every problem, positioned
   */
  public static Compiled compile(String text, String defaultName) {
    return new SqlCompiler(text).run(defaultName);
  }

  /** The value of the text's {@code SET 'name'}, if it parses and has one. */
  public static java.util.Optional<String> declaredName(String text) {
    try {
      for (SqlNode s : SqlParsing.statements(text)) {
        if (s instanceof SqlSetOption set && set.getValue() != null && String.join(".", set.getName().names)
            .equals("name")) {
          return java.util.Optional.of(set.getValue() instanceof SqlIdentifier id ? id.toString()
              : io.tributary.scheduler.spec.sql.internal.parser.SqlLiterals.text(set.getValue()));
        }
      }
    } catch (SqlProblem p) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.empty();
  }

  private Compiled run(String defaultName) {
    List<SqlNode> statements;
    try {
      statements = SqlParsing.statements(text);
    } catch (SqlProblem p) {
      problems.add(p);
      problems.throwIfAny();
      throw p;
    }
    for (SqlNode s : statements) {
      SpecBudget.check();
      try {
        Nesting.check(s);
      } catch (SqlProblem p) {
        problems.add(p);
        continue;
      }
      declare(s);
    }
    if (inserts.isEmpty() && !problems.any()) {
      problems.add(statements.isEmpty() ? null : statements.get(statements.size() - 1).getParserPosition(),
          "the job writes nothing: add INSERT INTO <table> SELECT ...");
    }
    name(defaultName);
    problems.throwIfAny();
    doc.reserve(catalog.tables().keySet());
    RelConversion conversion = new RelConversion(catalog);
    Translator translator = new Translator(doc, catalog, conversion.rexBuilder());
    for (SqlInsert insert : inserts) {
      SpecBudget.check();
      try {
        insert(insert, conversion, translator);
      } catch (SqlProblem p) {
        problems.add(p);
      }
    }
    problems.throwIfAny();
    return new Compiled(doc.document(), doc.locator());
  }

  private void declare(SqlNode s) {
    try {
      if (s instanceof SqlSetOption set) {
        Settings.add(set, doc);
      } else if (s instanceof SqlCreateStreamTable create) {
        TableDef def = TableDefs.of(create, catalog.types);
        checkNew(def.name(), create.name());
        catalog.add(def);
      } else if (s instanceof SqlCreateStreamView view) {
        checkNew(Names.simple(view.name(), "a view's name"), view.name());
        catalog.add(view);
      } else if (s instanceof SqlInsert insert) {
        inserts.add(insert);
      } else {
        throw new SqlProblem(s.getParserPosition(), "a job's statements are SET, CREATE TABLE, CREATE VIEW and INSERT "
            + "INTO; " + (s.getKind().belongsTo(org.apache.calcite.sql.SqlKind.QUERY)
                ? "a query alone has nowhere to go: INSERT INTO a table SELECT ..." : s.getKind() + " is not one"));
      }
    } catch (SqlProblem p) {
      problems.add(p);
    }
  }

  private void checkNew(String name, SqlIdentifier id) {
    if (catalog.declares(name)) {
      throw new SqlProblem(id.getParserPosition(), "'" + name + "' is already declared");
    }
  }

  private void name(String defaultName) {
    if (doc.has("name")) {
      return;
    }
    if (defaultName == null) {
      problems.add(null, "the job needs a name: SET 'name' = 'my-job';");
      return;
    }
    doc.setting(new String[] {"name"}, JsonNodeFactory.instance.textNode(defaultName), null, "the job's name");
  }

  private void insert(SqlInsert insert, RelConversion conversion, Translator translator) {
    Positions positions = new Positions(insert);
    SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
    String name = Names.simple(target, "the table written");
    TableDef sink = catalog.tables().get(name);
    if (sink == null) {
      throw new SqlProblem(target.getParserPosition(), catalog.declares(name) ? "'" + name + "' is a view: INSERT "
          + "INTO a table" : "table '" + name + "' is not declared" + Names.hint(name, catalog.tables().keySet()));
    }
    SqlValidator validator = catalog.validator();
    SqlNode valid = Catalog.validate(validator, insert);
    Comparisons.check(validator, valid);
    RelNode rel;
    try {
      rel = conversion.convert(valid, validator);
    } catch (SqlProblem p) {
      throw p;
    } catch (RuntimeException e) {
      throw new SqlProblem(insert.getParserPosition(), "cannot plan the statement: " + e.getMessage());
    }
    translator.insert((TableModify) rel, sink, positions);
  }
}
