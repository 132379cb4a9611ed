/**
 * The JDBC metastore engine: one engine for SQLite ({@code sqlite:///path/meta.db}), PostgreSQL
 * ({@code jdbc:postgresql://host/db}) and MariaDB or MySQL ({@code jdbc:mariadb://host/db},
 * {@code jdbc:mysql://host/db}). What differs between them is in {@link io.strata.meta.jdbc.dialect}
 * (a subpackage, so the seam shows: the dialects see JDBC and SQL, never the engine's classes);
 * everything else is here, once.
 *
 * <ul>
 *   <li>{@code JdbcMetaStore}: the {@link io.strata.meta.MetaStore}; reads and the simple writes;</li>
 *   <li>{@code Namespace}: create, link, unlink, rmdir, rename and merge, lock set first;</li>
 *   <li>{@code Rows}: the locks, the writes and single-row reads; {@code Reads}: the joined reads;
 *       {@code Columns}: the mapping of rows to records;</li>
 *   <li>{@code Transactions}: reads in auto-commit, writes with bounded retries;</li>
 *   <li>{@code Schema}: DDL, formatting a new volume, checking an existing one;</li>
 *   <li>{@code JdbcDumpSource} and {@code JdbcLoadTarget}: the two sides of dump and load;
 *       {@code JdbcFsck}: fsck's scan and repairs;</li>
 *   <li>{@code JdbcEngines}: the registry's entries, one per database.</li>
 * </ul>
 *
 * <h2>Tables (format version 1, see {@link io.strata.meta.VolumeFormat})</h2>
 *
 * <pre>
 *   inodes    (ino BIGINT PK, type INTEGER, mode INTEGER, uid INTEGER, gid INTEGER,
 *              atime_ns BIGINT, mtime_ns BIGINT, ctime_ns BIGINT, nlink INTEGER, size BIGINT,
 *              rdev BIGINT, parent BIGINT, name NAME, ufs_version TEXT NULL, synced_ns BIGINT,
 *              target TEXT NULL)
 *      one row per inode. type: the S_IFMT bits of InodeType (0100000 file, 0040000 directory...);
 *      mode: permission bits only (07777). (parent, name): the primary link, (1, "") for the
 *      root. synced_ns: -1 = never synced. target: the symlink target, NULL for other types.
 *   dentries  (parent BIGINT, name NAME, ino BIGINT, type INTEGER, PK (parent, name))
 *      one row per name; type as in inodes, copied so readdir needs no join. The primary key
 *      serves lookup and readdir pages (name &gt; ? ORDER BY name LIMIT n).
 *      Index dentries_by_ino (ino): the remaining names of an inode whose primary link is removed.
 *   xattrs    (ino BIGINT, name NAME, value BLOB, PK (ino, name))
 *   settings  ("key" KEY PK, value TEXT)
 *      volume settings; format_version is written on format and checked on open.
 *   counters, and where inode numbers come from: the dialect's (UsageCounters, InodeNumbers)
 *      SQLite: counters (name VARCHAR PK, value BIGINT), rows inodes, used_bytes, next_inode;
 *      PostgreSQL: counters (shard INTEGER PK, inodes BIGINT, used_bytes BIGINT), 16 rows added
 *        up, and the SEQUENCE inode_numbers;
 *      MariaDB: the same counters, and inode_numbers (next_inode BIGINT), one row, taken from in
 *        batches of 1,000.
 * </pre>
 *
 * <p>NAME, KEY, TEXT and BLOB are the dialect's types. A NAME compares as UTF-8 bytes, which is
 * Unicode code point order ({@link io.strata.meta.Names#ORDER}), without padding, so ORDER BY
 * name and readdir's "name &gt; ?" agree with every other engine. Times are nanoseconds since the
 * epoch.
 *
 * <h2>Locking</h2>
 *
 * <p>On a server, writes run as READ COMMITTED transactions. Every write locks the inode rows it
 * will change, all of them in one {@code SELECT ... FOR UPDATE} in inode order: the parents whose
 * entries change and the inodes those entries name. Only then does it read the entries it acts
 * on; an entry naming an inode it did not lock restarts the transaction. The locks are taken in
 * this order and no other:
 *
 * <ol>
 *   <li>the directory-move lock (the dialect's), only by a rename moving a directory to another
 *       parent, so the ancestor walk that refuses moves into the own subtree is stable;</li>
 *   <li>inode rows, ascending by ino, in one statement; dentry and xattr rows are written only by
 *       holders of their parent's / inode's lock, so their row locks never wait;</li>
 *   <li>one counters row, in the transaction's last statement.</li>
 * </ol>
 *
 * <p>With one order no two transactions wait for each other in a cycle. Deadlocks and
 * serialization failures, as the dialect recognizes them, are retried a bounded number of times
 * with backoff. Reads are single statements (joins for a directory's check and its page), each on
 * its own snapshot, in auto-commit mode. On SQLite a write is BEGIN IMMEDIATE, which holds the
 * whole database: the same code runs, with no row locks and no second reads.
 */
package io.strata.meta.jdbc;
