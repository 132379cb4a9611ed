package io.strata.meta.jdbc.dialect;

import org.sqlite.core.CoreStatement;
import org.sqlite.core.SafeStmtPtr;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * SQLite's rows read straight from their statement ({@code sqlite3_column_*}), through the statement
 * pointer sqlite-jdbc makes public ({@code CoreStatement.pointer}), under the same connection lock
 * its getters take.
 *
 * <p>Why: each of sqlite-jdbc's getters makes a lambda for the call
 * ({@code safeRunLong((db, ptr) -> db.column_long(ptr, col))}). C2 removes it, but the tier-2 code
 * a fresh daemon runs makes every one through a call into the VM ({@code Unsafe.allocateInstance}):
 * sixteen per inode read, 1,600 for a listing of 100 entries. Here the column readers are made once
 * per column number and kept: a fresh mount's listings took about a fifth less time
 * (docs/PERFORMANCE.md, forty-fourth round).
 */
final class SqliteResultRow implements ResultRow {
    private static final int SQLITE_NULL = 5;
    /** Column readers kept per column number, from 0: more than any metastore statement selects. */
    private static final int KEPT = 24;
    private static final Column[] COLUMNS = new Column[KEPT];

    static {
        for (int index = 0; index < KEPT; index++) {
            COLUMNS[index] = Column.at(index);
        }
    }

    private final SafeStmtPtr statement;
    private final int columnCount;
    private int last = 1;

    private SqliteResultRow(SafeStmtPtr statement, int columnCount) {
        this.statement = statement;
        this.columnCount = columnCount;
    }

    /** The rows of an SQLite result; through JDBC if {@code results} is not sqlite-jdbc's. */
    static ResultRow of(ResultSet results) throws SQLException {
        if (results.getStatement() instanceof CoreStatement core) {
            return new SqliteResultRow(core.pointer, results.getMetaData().getColumnCount());
        }
        return ResultRow.of(results);
    }

    @Override
    public long getLong(int column) throws SQLException {
        return statement.safeRunLong(column(column).asLong());
    }

    @Override
    public int getInt(int column) throws SQLException {
        return statement.safeRunInt(column(column).asInt());
    }

    @Override
    public String getString(int column) throws SQLException {
        return statement.safeRun(column(column).asText());
    }

    @Override
    public byte[] getBytes(int column) throws SQLException {
        return statement.safeRun(column(column).asBlob());
    }

    @Override
    public boolean wasNull() throws SQLException {
        return statement.safeRunInt(column(last).type()) == SQLITE_NULL;
    }

    /** The reader of a column, checked against the statement's column count as JDBC checks it. */
    private Column column(int column) throws SQLException {
        if (column < 1 || column > columnCount) {
            throw new SQLException("column " + column + " out of bounds [1, " + columnCount + "]");
        }
        last = column;
        int index = column - 1;
        return index < KEPT ? COLUMNS[index] : Column.at(index);
    }

    /** The readers of one column of the statement's current row, by its 0-based index (as SQLite numbers them). */
    private record Column(SafeStmtPtr.SafePtrLongFunction<SQLException> asLong,
                          SafeStmtPtr.SafePtrIntFunction<SQLException> asInt,
                          SafeStmtPtr.SafePtrFunction<String, SQLException> asText,
                          SafeStmtPtr.SafePtrFunction<byte[], SQLException> asBlob,
                          SafeStmtPtr.SafePtrIntFunction<SQLException> type) {
        static Column at(int index) {
            return new Column((db, ptr) -> db.column_long(ptr, index), (db, ptr) -> db.column_int(ptr, index),
                    (db, ptr) -> text(db.column_blob(ptr, index)), (db, ptr) -> db.column_blob(ptr, index),
                    (db, ptr) -> db.column_type(ptr, index));
        }

        /**
         * A text column's UTF-8 bytes (every database Strata makes is UTF-8, SQLite's default),
         * decoded here: sqlite-jdbc's {@code column_text} hands them over in a direct buffer it
         * makes by calling the buffer's constructor from native code, a tenth of a fresh daemon's
         * cold listing.
         */
        private static String text(byte[] utf8) {
            return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
        }
    }
}
