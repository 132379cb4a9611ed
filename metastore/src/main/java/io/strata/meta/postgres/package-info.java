/**
 * The PostgreSQL metastore engine ({@code jdbc:postgresql://host:port/db}): one volume per
 * database (or per schema, with the driver's {@code currentSchema} parameter), shared by any
 * number of clients.
 *
 * <p>{@link io.strata.meta.postgres.PostgresMetaStore} fronts it; its file header lists the tables
 * and the locking order. It is its own package rather than a dialect of {@code io.strata.meta.sql}
 * because what differs is not SQL syntax but concurrency: a connection pool instead of one
 * connection behind a lock, every write locking its inode rows up front in inode order,
 * transactions retried on conflicts, usage counters spread over rows.
 *
 * <ul>
 *   <li>{@code PostgresUrl}: the URL, the user and the password (URL or environment);</li>
 *   <li>{@code PostgresTransactions}: the HikariCP pool, reads in auto-commit, writes with retries;</li>
 *   <li>{@code PostgresNamespace}: create, link, unlink, rmdir, rename and merge, lock set first;</li>
 *   <li>{@code PostgresRows}: every statement, and the mapping of rows to records;</li>
 *   <li>{@code PostgresSchema}: DDL, formatting a new volume, checking an existing one.</li>
 * </ul>
 */
package io.strata.meta.postgres;
