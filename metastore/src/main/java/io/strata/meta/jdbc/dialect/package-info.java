/**
 * What differs between the databases the JDBC engine runs on, behind
 * {@link io.strata.meta.jdbc.dialect.SqlDialect}: {@code SqliteDialect}, {@code PostgresDialect}
 * and {@code MariaDbDialect}. A subpackage of the engine's rather than classes beside it, so
 * that the seam is visible: a dialect sees JDBC, SQL text and the tables' names, and none of the
 * engine's classes; adding a database means adding a dialect here and an entry to
 * {@code JdbcEngines}, nothing else.
 *
 * <p>The differences, and where each lives:
 *
 * <ul>
 *   <li>connections: {@code SingleConnection} (SQLite: one, behind a lock) or
 *       {@code ConnectionPool} (HikariCP), each lending {@code Session}s that keep their prepared
 *       statements;</li>
 *   <li>locking: BEGIN IMMEDIATE for the whole database, or {@code FOR UPDATE} row locks; the
 *       directory-move and format locks (advisory locks, a row, GET_LOCK);</li>
 *   <li>errors: which mean a taken key, which a transaction to run again;</li>
 *   <li>syntax: the upsert, a list parameter (an array, or padded {@code IN (?, ...)});</li>
 *   <li>schema: column types, table options, and two things kept differently:
 *       {@code UsageCounters} ({@code NamedCounters}, {@code ShardedCounters}) and
 *       {@code InodeNumbers} ({@code CounterNumbers}, {@code SequenceNumbers},
 *       {@code BatchedNumbers});</li>
 *   <li>dump and load: how several connections share one snapshot, how many read and write at
 *       once, how a table is emptied, whether to analyze, what text a column cannot hold;</li>
 *   <li>reading a result: the engine's row mappers read {@code ResultRow}s, through JDBC's getters
 *       ({@code JdbcResultRow}) or, for SQLite, from the statement itself
 *       ({@code SqliteResultRow}: sqlite-jdbc's getters make a lambda per call, which a fresh
 *       daemon's code makes through a call into the VM).</li>
 * </ul>
 *
 * <p>{@code ServerDialect} is what the two servers share (a pool, JDBC transactions, row locks,
 * sharded usage, four connections for a dump or a load). {@code JdbcUrl} takes a server's URL apart (credentials out of it, the password from the
 * environment when the URL has none); {@code Syntax} holds the SQL more than one dialect writes.
 */
package io.strata.meta.jdbc.dialect;
