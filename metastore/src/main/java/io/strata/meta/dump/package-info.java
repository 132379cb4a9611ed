/**
 * {@code strata dump} and {@code strata load}: a volume's metadata as one JSON document, written
 * and read as a stream, from and into any engine.
 *
 * <p>The format is in the header of {@code DumpFormat.java}. A dump
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
 * <p>Each engine implements the two interfaces in its own package ({@code MemoryDump},
 * {@code SqlDump}, {@code PostgresDump}, {@code RedisDump}), where its class comment says what a
 * dump of it guarantees: a consistent snapshot for memory, SQLite and PostgreSQL; per page for
 * Redis.
 */
package io.strata.meta.dump;
