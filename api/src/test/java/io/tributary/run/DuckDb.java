package io.tributary.run;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** An in-memory DuckDB over the golden input's tables, answering queries as rows of plain values. */
final class DuckDb implements AutoCloseable {
  private static final String PERSON = "{'id': 'BIGINT', 'name': 'VARCHAR', 'emailAddress': 'VARCHAR', "
      + "'creditCard': 'VARCHAR', 'city': 'VARCHAR', 'state': 'VARCHAR', 'dateTime': 'BIGINT', 'extra': 'VARCHAR'}";
  private static final String AUCTION = "{'id': 'BIGINT', 'itemName': 'VARCHAR', 'description': 'VARCHAR', "
      + "'initialBid': 'BIGINT', 'reserve': 'BIGINT', 'dateTime': 'BIGINT', 'expires': 'BIGINT', 'seller': 'BIGINT', "
      + "'category': 'BIGINT', 'extra': 'VARCHAR'}";
  private static final String BID = "{'auction': 'BIGINT', 'bidder': 'BIGINT', 'price': 'BIGINT', "
      + "'channel': 'VARCHAR', 'url': 'VARCHAR', 'dateTime': 'BIGINT', 'extra': 'VARCHAR'}";

  private final Connection connection;

  /** A database with tables {@code person}, {@code auction} and {@code bid} from the files in {@code dir}. */
  DuckDb(Path dir) throws SQLException {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    load("person", dir.resolve("person.jsonl"), PERSON);
    load("auction", dir.resolve("auction.jsonl"), AUCTION);
    load("bid", dir.resolve("bid.jsonl"), BID);
  }

  private void load(String table, Path file, String columns) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TABLE " + table + " AS SELECT * FROM read_json('" + file + "', "
          + "format = 'newline_delimited', columns = " + columns + ")");
    }
  }

  /** The rows {@code sql} gives, each value a Long, a Double, a String or null. */
  List<List<Object>> query(String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(sql)) {
      int columns = r.getMetaData().getColumnCount();
      while (r.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(plain(r.getObject(i)));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** Integers as Long, decimals as Long when whole else Double, other numbers as Double. */
  static Object plain(Object v) {
    if (v instanceof Integer || v instanceof Short || v instanceof Byte || v instanceof java.math.BigInteger) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigDecimal d) {
      return d.stripTrailingZeros().scale() <= 0 ? (Object) d.longValueExact() : (Object) d.doubleValue();
    }
    if (v instanceof Float f) {
      return f.doubleValue();
    }
    return v;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
