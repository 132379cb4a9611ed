/**
 * The readahead/prefetch engine: how reads of an object in the under storage become ranged GETs,
 * read ahead of sequential streams, shared between readers, and bounded in memory. It sits under
 * the page store (which asks for whole pages, in order for a sequential reader) at the level of the
 * under-storage file; S3 files use it, local files do not (the kernel reads ahead of those).
 *
 * <h2>The read path</h2>
 * A volume has one {@link io.strata.core.readahead.Readahead}: its
 * {@link io.strata.core.readahead.ReadaheadConfig} (from
 * {@link io.strata.core.readahead.ReadaheadOptions}: {@code max_readahead}, {@code prefetch},
 * {@code buffer_size}), its {@link io.strata.core.readahead.BufferBudget} and its
 * {@link io.strata.core.readahead.ReadaheadStats} (the {@code strata.readahead.*} meters of
 * {@link io.strata.core.readahead.ReadaheadMetrics} read both). Each open version of an object
 * (S3: key and ETag) gets a {@link io.strata.core.readahead.Prefetcher} over a
 * {@link io.strata.core.readahead.RangeFetcher}, the asynchronous ranged GET of that version
 * ({@code CompletableFuture<ByteBuffer>}; the S3 one is conditional on the ETag, so bytes of two
 * versions never mix). A read of {@code [offset, end)}:
 * <ol>
 *   <li><b>finds its stream</b>: a file keeps up to 8 {@code ReadaheadSession}s, so interleaved
 *       readers each keep their own window. A read continues a session if it starts exactly where
 *       the session's last read ended, or, once the session is sequential, anywhere from a part
 *       (8 MiB) behind to the end of its window (one stream's reads arrive a little out of order
 *       from several FUSE threads). The closest such session wins; none means a random read.</li>
 *   <li><b>looks in the part queue</b> ({@code PartTable}): the file's parts, in flight or fetched
 *       and unread, ordered and never overlapping, whoever asked for them. Bytes covered there are
 *       waited for, never requested again: concurrent requests for one range share one GET, and a
 *       stream reading into its own readahead waits for the GET already under way. Only gaps are
 *       fetched.</li>
 *   <li><b>widens a small random read</b> ({@code prefetch}, on by default): a read shorter than a
 *       block (1 MiB) that continues no session fetches its whole aligned block, and a read within
 *       the last 1 MiB of the file fetches the tail from the block boundary below that to the end,
 *       once (the Parquet/ORC footer and what precedes it); {@code prefetch=0} fetches exactly the
 *       gaps.</li>
 *   <li><b>reserves</b> the bytes to fetch in the {@code BufferBudget}, waiting if it is full (the
 *       budget first asks idle files to drop fetched, unread parts): this is the backpressure. A
 *       read larger than the whole budget is cut to it and comes back short (callers loop).</li>
 *   <li><b>moves its session on and reads ahead</b>: the second read of a stream makes it
 *       sequential with a 1 MiB window, which doubles each time the stream has read half a window,
 *       up to its share of {@code max_readahead} (64 MiB; 0 turns readahead off): the streams of
 *       the volume that read within the last second share it equally, each keeping at least two
 *       parts ({@code ActiveStreams}), so a lone stream over a distant store keeps many GETs in
 *       flight while several streams, bound by the CPU, do not hold more memory between them. Whenever less than half the
 *       window is fetched or in flight ahead of the stream, the rest is requested as parts of up
 *       to 8 MiB on the 8 MiB part grid (a window of a part or more is rounded up to the grid, so
 *       a stream's GETs are whole parts), each only if the budget has room right now: readahead
 *       never waits, it shrinks the window instead. A new session beyond the 8th evicts the least
 *       recently used one that is not sequential, or if all are, the least recently used: each
 *       random read starts a session, and random readers must not push out a stream between two
 *       of its reads.</li>
 *   <li><b>pins and copies</b>: without the lock, waits for each part it needs (the futures of GETs
 *       the SDK's Netty client runs: no thread per request) and copies its bytes out; or, for
 *       {@code readRange} of bytes within one block of one part (each page the page cache fills),
 *       hands out a read-only view of them instead of a copy.</li>
 * </ol>
 *
 * <h2>Hints</h2>
 * A caller that knows a long range is about to be read in order says so with
 * {@link io.strata.core.readahead.Prefetcher#willNeed}: the page cache does, for each run of
 * missing pages in one read (a Parquet column chunk through the Hadoop adapter is tens of MiB,
 * read a page at a time). What no part covers is requested at once, on the part grid, as far as
 * the budget has room now; the parts belong to no session, so nothing is read ahead past the
 * range. A range no longer than a session's first window is ignored: the sessions serve it as
 * well (a FUSE request's pages, when pages are smaller than the request).
 *
 * <h2>Parts and memory</h2>
 * A part's bytes are a {@link io.strata.core.readahead.FetchedRange}: blocks on the file's 1 MiB
 * grid, so a page-aligned page is one buffer (a view, not a copy, for the page cache) and no part
 * is one large array. A view keeps its block alive after the part is gone, outside the budget: the
 * page cache holds views only until their pages are stored (at most its fill queue's worth). A part
 * the S3 client received whole into its buffer pool keeps that lent memory ({@code
 * io.strata.core.buffer}): the part holds it until released, each view until closed, and the last
 * of them gives it back to the pool. A part's fetch cancelled after its bytes arrived releases
 * them there, so lent memory never waits for the collector.
 * A {@code Part} holds its bytes' reservation from before its GET starts until it is dropped and
 * unpinned, so the budget bounds bytes in flight and buffered together ({@code buffer_size},
 * 128 MiB by default, per volume). Parts are dropped when read through, when their session has
 * moved more than a part past them (unread: the window halves), when their session is evicted,
 * when the budget reclaims idle fetched parts (oldest first, halving their windows) for a waiting
 * reader, when a GET fails (the next read asks again, and reports the failure if it fails again:
 * the SDK has retried by then), and when the prefetcher is closed (the file closed, or its version
 * changed), which abandons GETs still running.
 *
 * <h2>Locking</h2>
 * Each {@code Prefetcher} has one lock over its sessions and parts, never held while waiting for a
 * fetch or for budget room; the budget's monitor is a leaf (taken under a prefetcher's lock, never
 * the other way: reclaiming only tries other prefetchers' locks). GET completions run on the SDK's
 * threads and only drop failed parts and wake waiting readers.
 */
package io.strata.core.readahead;
