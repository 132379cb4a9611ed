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
 * <p>Measured with {@code bench/dump-load.sh 1000000 sqlite redis postgres} (1,000,000 inodes,
 * 1,010,019 entries; {@code -Xmx256m -XX:+UseSerialGC}) on 2 cores shared with other work: the load
 * average was 8 to 9.5 throughout, so every process had about a quarter of the machine and wall
 * times are noisy by tens of percent (Redis's binary load, slower than its JSON load here, used
 * less CPU). One run:
 *
 * <pre>
 * engine   format  dump wall  dump RSS  load wall  load RSS  size    dump -> load -> dump
 * sqlite   json    14.3 s     164 MB    28.4 s     161 MB    218 MB  identical
 * sqlite   binary  13.5 s     164 MB    22.9 s     157 MB     79 MB  identical
 * redis    json    24.7 s     169 MB    29.7 s     176 MB    218 MB  identical
 * redis    binary  24.5 s     158 MB    37.4 s     187 MB     79 MB  identical
 * postgres json    30.0 s     167 MB    42.6 s     176 MB    218 MB  identical
 * postgres binary  20.2 s     169 MB    33.9 s     175 MB     79 MB  identical
 * </pre>
 *
 * <p>Against JuiceFS 1.3.2 ({@code bench/juicefs-dump-load.sh}: a JuiceFS dump of 100 x 100
 * directories of 99 files, one 4 KiB slice each, 1,000,101 inodes, loaded into Redis, then dumped
 * and loaded in both its formats), run right after {@code bench/dump-load.sh 1000000 redis}
 * when the load average had fallen to 3.5 (6.3 by the end of Strata's run, 4.0 by the end of
 * JuiceFS's):
 *
 * <pre>
 * 1M inodes on Redis   dump wall  dump RSS  load wall  load RSS  size
 * Strata JSON          22.6 s     162 MB    24.3 s     190 MB    218 MB
 * Strata binary        18.5 s     164 MB    25.0 s     191 MB     79 MB
 * JuiceFS JSON         23.0 s     104 MB    30.3 s     342 MB    280 MB
 * JuiceFS --binary      8.6 s     147 MB    13.2 s     331 MB    122 MB
 * </pre>
 *
 * <p>The binary format makes Strata's dump a fifth faster on Redis and its file smaller than
 * JuiceFS's binary one, but JuiceFS's binary dump and load stay about 2x faster: what is left is
 * in the engine round trips and the JVM (below), not in the encoding, which is item 1 of issue 16.
 *
 * <p>CPU profiles (async-profiler, cpu, 1 ms; SQLite, same tree, same load average) say where a
 * step's CPU goes; CPU time is steadier than wall time on a shared machine:
 *
 * <pre>
 *                          dump JSON  dump binary  load JSON  load binary
 * CPU samples (ms)         12,365     11,839       17,123     15,028
 * SQLite (JDBC + native)   52 %       55 %         63 %       69 %
 * JIT compiler threads     22 %       21 %         19 %       16 %
 * Jackson (JSON / Smile)    8.0 %      6.5 %        8.7 %      4.1 %
 * Strata's own code        13 %       12 %          8 %        9 %
 * JVM start, CLI, logging   3 %        3 %          2 %        2 %
 * GC (serial, VM thread)   &lt;1 %      &lt;1 %        &lt;1 %      &lt;1 %
 * </pre>
 *
 * <p>So the encoding is not where the time goes: Jackson's JSON is 8-9 % of the CPU, Smile
 * halves that on a load (no number or name parsing: member names are back-references, numbers
 * are binary) and saves a fifth of it on a dump, where Smile's shared-value lookups
 * ({@code _findSeenStringValue}, 1.8 %) eat part of what not quoting and not printing digits
 * saves. The binary format's gains are its size (36 % of the JSON: 79 MB against 218 MB, and
 * less to gzip) and 2 s of CPU per million entries on a load; its checksum costs nothing
 * measurable (CRC32C is an intrinsic). What remains is the engine (SQLite's B-tree inserts and
 * statement steps, one writer), and the JIT compiling all of that in a short-lived JVM (2-3 s of
 * CPU, which competes with the work on 2 cores: a CDS archive or {@code -XX:TieredStopAtLevel=1}
 * are the next things to try). Heap stays far below {@code -Xmx256m}: peak RSS (157-187 MB) is
 * mostly the JVM itself, metaspace, code cache and the JDBC / Jedis buffers.
 */
package io.strata.meta.dump;
