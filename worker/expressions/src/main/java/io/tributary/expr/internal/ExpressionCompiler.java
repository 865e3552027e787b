package io.tributary.expr.internal;

import io.tributary.expr.CompiledExpression;
import io.tributary.expr.ExpressionException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.janino.SimpleCompiler;

/**
 * Compiles checked expressions to JVM bytecode with Janino: one generated subclass of
 * {@link GeneratedExpression} per distinct expression text, cached, instantiated per call.
 */
public final class ExpressionCompiler {
  private static final int MAX_CACHED = 1024;
  private static final String CLASS_NAME = "io.tributary.expr.generated.Expression";
  private static final Map<String, Template> CACHE = new ConcurrentHashMap<>();
  /** Single-type imports: on-demand imports make Janino probe the class loader for every name. */
  private static final String IMPORTS = imports(Arith.class, Casts.class, Compare.class, Funcs.class,
      GeneratedExpression.class, InList.class, LikePattern.class, Logic.class, Strings.class, TextFunctions.class,
      io.tributary.stream.Record.class, io.tributary.stream.Schema.class);

  private ExpressionCompiler() {}

  /** A compiled class with what its constructor needs. */
  private record Template(Constructor<?> constructor, String[] fields, Object[] constants) {}

  /** A fresh, not thread-safe instance evaluating {@code sql}. */
  public static CompiledExpression compile(String sql) {
    Template t = CACHE.get(sql);
    if (t == null) {
      if (CACHE.size() >= MAX_CACHED) {
        CACHE.clear();
      }
      t = CACHE.computeIfAbsent(sql, ExpressionCompiler::build);
    }
    try {
      return (CompiledExpression) t.constructor.newInstance(sql, t.fields, t.constants);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot instantiate compiled expression `" + sql + "`", e);
    }
  }

  private static Template build(String sql) {
    Generator g = new Generator(sql);
    String source = source(g, g.gen(Parsing.parse(sql)));
    SimpleCompiler compiler = new SimpleCompiler();
    compiler.setParentClassLoader(ExpressionCompiler.class.getClassLoader());
    try {
      compiler.cook(source);
      Class<?> c = compiler.getClassLoader().loadClass(CLASS_NAME);
      Constructor<?> ctor = c.getConstructor(String.class, String[].class, Object[].class);
      return new Template(ctor, g.fields.toArray(new String[0]), g.constants.toArray());
    } catch (CompileException | ClassNotFoundException | NoSuchMethodException e) {
      throw new ExpressionException("internal error compiling `" + sql + "`: " + e.getMessage()
          + "\n" + source, e);
    }
  }

  private static String imports(Class<?>... classes) {
    StringBuilder s = new StringBuilder();
    for (Class<?> c : classes) {
      s.append("import ").append(c.getName()).append(";\n");
    }
    return s.toString();
  }

  /** The Java source of the generated class. */
  static String source(Generator g, Code root) {
    StringBuilder s = new StringBuilder();
    s.append("package io.tributary.expr.generated;\n").append(IMPORTS)
        .append("public final class Expression extends GeneratedExpression {\n")
        .append("  private Schema schema;\n");
    for (int i = 0; i < g.fields.size(); i++) {
      s.append("  private int i").append(i).append(" = -1;\n");
    }
    for (int i = 0; i < g.constants.size(); i++) {
      s.append("  private final ").append(g.constantTypes.get(i)).append(" k").append(i).append(";\n");
    }
    s.append("  public Expression(String sql, String[] fields, Object[] k) {\n    super(sql, fields);\n");
    for (int i = 0; i < g.constants.size(); i++) {
      s.append("    this.k").append(i).append(" = (").append(g.constantTypes.get(i)).append(") k[").append(i).append("];\n");
    }
    s.append("  }\n  private void bind(Schema s) {\n");
    for (int i = 0; i < g.fields.size(); i++) {
      s.append("    i").append(i).append(" = position(s, ").append(i).append(");\n");
    }
    s.append("    schema = s;\n  }\n");
    appendEval(s, g, root);
    return s.append("}\n").toString();
  }

  private static void appendEval(StringBuilder s, Generator g, Code root) {
    s.append("  public Object eval(Record r) {\n")
        .append("    if (r.schema() != schema) {\n      bind(r.schema());\n    }\n")
        .append("    Object[] v = r.values();\n");
    for (int i = 0; i < g.temps; i++) {
      s.append("    Object t").append(i).append(" = null;\n");
    }
    s.append("    try {\n      return ").append(root.java()).append(";\n")
        .append("    } catch (RuntimeException e) {\n      throw failure(e);\n    }\n  }\n")
        .append("  public boolean test(Record r) {\n    Object x = eval(r);\n")
        .append("    return x == Boolean.TRUE || condition(x);\n  }\n");
  }
}
