<#--
  The statements Tributary adds to Calcite's grammar (see config.fmpp). Each builds a node of
  io.tributary.scheduler.spec.sql.internal.parser, keeping the position of every part so that
  errors can name its line and column.
-->

/**
 * Parses the rest of "CREATE TABLE name (column type, ..., WATERMARK FOR column AS expression)
 * [WITH ('key' = 'value', ...)]".
 */
SqlCreate SqlCreateStreamTable(Span s, boolean replace) :
{
    final SqlIdentifier id;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final List<SqlNode> watermarks = new ArrayList<SqlNode>();
    final Span elements;
    SqlNodeList tableOptions = null;
}
{
    <TABLE> id = CompoundIdentifier()
    <LPAREN> { elements = span(); }
    StreamTableElement(columns, watermarks)
    (
        <COMMA> StreamTableElement(columns, watermarks)
    )*
    <RPAREN>
    [ <WITH> tableOptions = StreamTableOptions() ]
    {
        return new SqlCreateStreamTable(s.end(this), replace, id,
            new SqlNodeList(columns, elements.end(this)),
            new SqlNodeList(watermarks, elements.end(this)),
            tableOptions == null ? SqlNodeList.EMPTY : tableOptions);
    }
}

/** A column "name type [NOT NULL]" or "WATERMARK FOR column AS expression". */
void StreamTableElement(List<SqlNode> columns, List<SqlNode> watermarks) :
{
    final SqlIdentifier id;
    final SqlDataTypeSpec type;
    boolean nullable = true;
    final SqlIdentifier column;
    final SqlNode expression;
    final Span s;
}
{
    LOOKAHEAD(2)
    <WATERMARK> { s = span(); } <FOR> column = SimpleIdentifier() <AS>
    expression = Expression(ExprContext.ACCEPT_NON_QUERY) {
        watermarks.add(new SqlWatermark(s.end(this), column, expression));
    }
|
    id = SimpleIdentifier() { s = span(); }
    type = DataType()
    [
        <NOT> <NULL> { nullable = false; }
    |
        <NULL> { nullable = true; }
    ]
    {
        columns.add(SqlDdlNodes.column(s.end(this), id, type.withNullable(nullable), null,
            nullable ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE));
    }
}

/** "('key' = 'value', ...)": a table's connector options. */
SqlNodeList StreamTableOptions() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    [
        StreamTableOption(list)
        (
            <COMMA> StreamTableOption(list)
        )*
    ]
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

void StreamTableOption(List<SqlNode> list) :
{
    final SqlNode key;
    final SqlNode value;
}
{
    key = StringLiteral() <EQ> value = Literal() {
        list.add(new SqlTableOption(Span.of(key).end(value), key, value));
    }
}

/** Parses the rest of "CREATE [TEMPORARY] VIEW name [(column, ...)] AS query". */
SqlCreate SqlCreateStreamView(Span s, boolean replace) :
{
    final SqlIdentifier id;
    SqlNodeList columns = null;
    final SqlNode query;
}
{
    [ <TEMPORARY> ]
    <VIEW> id = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) {
        return new SqlCreateStreamView(s.end(this), replace, id, columns, query);
    }
}

/** "SET 'key' = 'value'", the form Flink's SQL client takes (Calcite's own takes an identifier). */
SqlNode SqlSetQuotedOption() :
{
    final Span s;
    final SqlNode key;
    final SqlNode value;
}
{
    <SET> { s = span(); } key = StringLiteral() <EQ> value = Literal() {
        return SqlSetQuoted.of(s.end(this), key, value);
    }
}
