/**
 * The SQL metastore engine: {@link io.strata.meta.sql.SqlMetaStore} over one JDBC connection,
 * every call one transaction.
 *
 * <p>The tables and their encoding are listed in the header of {@code SqlMetaStore.java};
 * {@code SqlSchema} creates them and checks the format version, {@code SqlRows} reads and writes
 * rows one statement at a time, {@code SqlNamespace} composes those into create, link, unlink,
 * rmdir, rename and merge. What differs between databases sits behind
 * {@link io.strata.meta.sql.SqlDialect}: {@code SqliteDialect} for {@code sqlite:///path/meta.db},
 * so the rest of the package stays portable SQL. PostgreSQL has an engine of its own,
 * {@link io.strata.meta.postgres}: what differs there is concurrency (a pool, row locks in inode
 * order, retries), not only SQL.
 */
package io.strata.meta.sql;
