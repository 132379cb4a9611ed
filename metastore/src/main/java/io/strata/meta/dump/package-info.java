/**
 * {@code strata dump} and {@code strata load}: a volume's metadata as one JSON document, written
 * and read as a stream, from and into any engine; or the same document in binary (Smile, with a
 * count and CRC32C trailer), through the same code.
 *
 * <p>The format is in the header of {@code DumpFormat.java}. {@link io.strata.meta.dump.DumpEncoding}
 * gives the writer and the reader their {@code JsonFactory}: JSON's or Smile's; a binary dump's
 * strings go through {@code BinaryStrings} (unpaired surrogates), its document through
 * {@code ChecksumOutputStream} and its {@code DumpTrailer} after it, and on the way back through
 * {@code TrailerInput}, which holds the trailer back from the parser and checks it. A dump
 * ({@link io.strata.meta.dump.MetadataDump#dump}) walks the tree depth first in
 * {@code TreeWalker}, which keeps the next directory pages being fetched from the engine's
 * {@link io.strata.meta.dump.DumpSource} (several at once: multi-row queries, pipelines) while
 * {@code DumpWriter} writes the current one with Jackson's {@code JsonGenerator}. A load
 * ({@link io.strata.meta.dump.MetadataDump#load}) reads with {@code DumpReader}
 * ({@code JsonParser}, entry by entry, every member checked, errors with their byte offset), and
 * {@code Loader} batches what it reads into the engine's {@link io.strata.meta.dump.LoadTarget}
 * through {@code WritePipeline} (several batches in flight), counting names and subdirectories
 * as it goes so that nlink and the counters are recomputed rather than trusted. A load that
 * fails leaves the volume empty. {@link io.strata.meta.dump.Progress} reports both, as a bar on a
 * terminal or as plain lines; {@code TreeGenerator} makes up large trees for benchmarks
 * ({@code bench/dump-load.sh}).
 *
 * <p>Memory: a dump holds a window of pages plus one page per directory level; a load holds
 * its batches in flight, the path to the current directory, one bit per inode number and a small
 * record per hard-linked inode — never the tree.
 *
 * <p>Each engine family implements the two interfaces in its own package, a class per side
 * ({@code MemoryDumpSource} and {@code MemoryLoadTarget}, {@code JdbcDumpSource} and
 * {@code JdbcLoadTarget}, {@code RedisDumpSource} and {@code RedisLoadTarget}), where the class
 * comment says what a dump of it guarantees: a consistent snapshot for memory and the JDBC engine
 * (SQLite, PostgreSQL, MariaDB); per page for Redis.
 *
 * <h2>Where the time goes</h2>
 *
 * <p>Measured with {@code bench/dump-load.sh}, which runs JuiceFS's dump and load in the same run
 * as Strata's, on every engine (a JuiceFS volume of the same shape: 100 x 100 directories of 99
 * files, 1,000,101 inodes), and gives for each step the JVM's CPU ({@code /usr/bin/time}) and the
 * engine server's (Redis's process; PostgreSQL's postmaster and its children). The machine has 2
 * cores shared with other work; on 2026-11-26 the load average stayed at 9 to 15 for hours, so a
 * niced step got a fraction of a core and wall times are several times what they are on an idle
 * machine, and noisy: the CPU seconds are what compares. 1,000,000 inodes, binary dumps.
 *
 * <h3>Redis</h3>
 *
 * <pre>
 * 1M inodes on Redis            dump: JVM  server  RSS      load: JVM  server  RSS
 * Strata before (C2, see JVM)        11.2 s  10.5 s  162 MB       15.1 s  14.9 s  194 MB
 * Strata now                         10.1 s  10.4 s  134 MB       11.0 s  11.9 s  143 MB
 * JuiceFS 1.3 --binary                4.9 s   7.1 s  139 MB        5.3 s   5.1 s  298 MB
 * </pre>
 *
 * <p>(Strata now and JuiceFS: one run of {@code bench/dump-load.sh 1000000 redis postgres}, wall
 * 449 s dump and 253 s load for Strata, 130 s and 35 s for JuiceFS, at a load average of 11-15;
 * Strata's round trip stayed byte-identical. Before: the same script on main, 234 s and 191 s at
 * 10-16; JuiceFS by hand on another Redis an hour earlier used 4.5 + 7.7 s and 4.7 + 4.5 s of CPU.)
 *
 * <p>So on Redis Strata's dump and load are still slower than JuiceFS's binary ones, and the
 * reason is the key schema, not the client: Redis itself spends more CPU on Strata's load (11.9 s)
 * than JuiceFS spends on its whole load, client included (10.4 s), and Redis is one thread, so no
 * batching, pipelining or parallelism on the client can take a load below that. Measured with
 * {@code redis-cli --pipe} on the same server (CPU of the server per million):
 *
 * <pre>
 * HSET i&lt;ino&gt; with Strata's 13 fields (type, mode, ..., synced)     6.6 s
 * SET i&lt;ino&gt; to one 70-byte value (JuiceFS's packed attributes)        1.6 s
 * ZADD of a directory's names, 100 per directory, ascending          2.6-2.8 s
 * the same, descending                                               1.1 s
 * HSET d&lt;dir&gt; of a directory's entries, 100 per directory          0.8-1 s
 * </pre>
 *
 * <p>A perf profile of redis-server during a load agrees: listpack lookups and inserts
 * ({@code lpFind}, {@code memcmp}, {@code lpInsert}: every field of a small hash is looked for
 * before it is appended, and every append reallocates, {@code malloc_usable_size} 7-9 %), the
 * keyspace's dictionary (about 9 %), and parsing 30 arguments per inode. What was done: names go to
 * ZADD in descending order (RedisLoadTarget#descending: a member of a small sorted set is inserted
 * after a walk from its start to the first greater member, so ascending names were quadratic per
 * directory), which with C1 below took the server's part of a load from 14.9 s to 11.9 s. A
 * dump's server CPU ({@code INFO commandstats}) is one HGETALL of the inode and one of its xattrs
 * per entry in a MULTI (1.7 µs each) and one script per page (ZRANGEBYLEX and HMGET of the
 * entries), and the replies: 26 strings per inode. What would close the gap is the same change
 * JuiceFS made, an inode as one packed binary string ({@code SET}/{@code GET}); that is a new
 * format version of the Redis engine, every script that reads or writes an inode, and is not
 * done here.
 *
 * <h3>SQLite and PostgreSQL</h3>
 *
 * <p>JuiceFS's SQL engines are far slower than its Redis one, and than Strata's: JuiceFS's
 * {@code --binary} dump of SQLite took 44.7 s of CPU (3:09 wall) and 1,000 MB of RSS, its load
 * into SQLite more than 5:30 wall at 1 GB of RSS (stopped there), against Strata's 10.9 s and
 * 12.4 s of CPU at 152-155 MB (95 s and 43 s wall, in the same run; before C1, and a 1M dump of
 * SQLite uses 11.1 s with C2 and 11.2 s with C1). A CPU profile of Strata on SQLite: a third of a load is SQLite's own B-tree work (each inode
 * is two B-trees, the rowid table and the primary key on ino; each entry three), JNI binding per
 * column 10 %, Jackson 5 %, {@code pwrite} 4 %; a dump is SQLite 12 %, the JNI objects of the
 * result sets, Smile 7 %.
 *
 * <p>PostgreSQL, in the same run as Redis above (JVM CPU + the server's, which is the postmaster
 * and its backends):
 *
 * <pre>
 * 1M inodes on PostgreSQL   dump: wall   JVM     server  RSS       load: wall  JVM     server  RSS
 * Strata now, binary              28.9 s   8.2 s  8.6 s   135 MB        45.6 s  6.8 s  12.7 s   144 MB
 * JuiceFS 1.3 --binary           127.0 s  33.6 s  3.1 s   900 MB        70.1 s 33.0 s  29.7 s  1467 MB
 * </pre>
 *
 * <p>Before these changes a binary dump of PostgreSQL took 20.2 s and its load 33.9 s wall at a
 * load average of 8-9.5. The same run's SQLite rows, once the machine had quietened (load average
 * 5 to 2.5): Strata's binary dump 10.6 s wall, 9.0 s CPU, 135 MB, its load 12.6 s, 10.3 s, 139 MB;
 * JuiceFS's --binary dump 25.4 s, 48.3 s, 1,003 MB, its load 46.7 s, 55.1 s, 1,111 MB.
 *
 * <h3>The JVM</h3>
 *
 * <p>With a JVM started per step, C2's compiling was the largest single cost of a small load (at
 * 200,000 inodes, 60 % of a Redis load's CPU samples), and at a million still about a fifth of the
 * CPU, taken from the 2 cores the engine server needs. {@code bin/strata} runs dump and load with
 * {@code -XX:TieredStopAtLevel=1} (C1 only): 1M on Redis, the JVM's CPU for a load 15.1 -> 11.0 s
 * and for a dump 11.2 -> 10.1 s, a SQLite dump unchanged (11.1 / 11.2 s: there most of the work is
 * SQLite's native code), and 20-45 MB less RSS everywhere (C2's code cache and arenas). A mount
 * keeps C2 (docs/PERFORMANCE.md: its steady state lost 35-45 % with C1). A class-data sharing
 * archive for dump and load (as a mount has) would save the few hundred ms of class loading left
 * ({@code SymbolTable}, {@code ClassFileParser}, inflating the jar: 3 % of a dump) and is not done.
 *
 * <p>Memory: heap use stays far below {@code -Xmx256m}; peak RSS (137-155 MB) is mostly the JVM
 * itself, metaspace, code cache and the JDBC / Jedis buffers. JuiceFS's binary load took 328 MB
 * on Redis and about 1 GB on SQLite.
 *
 * <p>Earlier (issue 16, before the above, SQLite, async-profiler cpu at 1 ms, C2): Jackson was
 * 8-9 % of the CPU of a JSON dump or load and Smile halves that on a load; the binary format's
 * gains are its size (79 MB against 218 MB for JSON) and about 2 s of CPU per million entries on a
 * load; its CRC32C costs nothing measurable.
 */
package io.strata.meta.dump;
