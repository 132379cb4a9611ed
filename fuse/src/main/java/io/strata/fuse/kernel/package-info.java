/**
 * Strata's own FUSE transport: the kernel protocol ({@code include/uapi/linux/fuse.h}) spoken
 * from Java over {@code /dev/fuse}, inode-based, with no libfuse on the request path.
 *
 * <h2>Parts</h2>
 * <ul>
 *   <li>{@link io.strata.fuse.kernel.KernelMount}: mount(2) as root (the data string libfuse's
 *       mount would write), else {@code fusermount3}, which mounts and passes the descriptor back
 *       over a socket (SCM_RIGHTS).</li>
 *   <li>{@link io.strata.fuse.kernel.KernelSession}: a fixed pool of worker threads, each with its
 *       own direct buffer (max_write plus headers) that takes a request and then its reply's
 *       payload, reading with read(2) and replying with one writev(2) per reply (header and
 *       payload gathered, never copied together; a READ's bytes still in a readahead part the S3
 *       client lent are gathered from there, see {@link io.strata.fuse.kernel.Replies}). The pool is made once per mount: libfuse2's pool created and destroyed
 *       threads under load, each paying a JVM attach.</li>
 *   <li>{@link io.strata.fuse.kernel.Init}: negotiates the minor version (the kernel's, up to
 *       7.38) and the features: async reads and direct I/O, requests of up to 1 MiB (max_pages;
 *       reads no larger than a worker's splice pipe takes whole), the readahead window (max_read),
 *       READDIRPLUS (auto), parallel directory operations, atomic O_TRUNC, cached symlinks,
 *       auto_inval_data for {@code auto_cache}, the writeback cache when asked.</li>
 *   <li>{@link io.strata.fuse.kernel.Operations}: one method per operation, each decoding its
 *       arguments and calling {@link io.strata.client.StrataFileSystem}'s inode API. Node ids are
 *       the metastore's inode numbers (never reused, so the generation is always 0); the
 *       {@link io.strata.fuse.kernel.LookupCounts} say which the kernel holds. An open for reading
 *       only is answered FOPEN_NOFLUSH: its close has nothing to record, and the kernel then sends
 *       no FLUSH for it (one request less per file read).</li>
 *   <li>{@link io.strata.fuse.kernel.DirectoryHandles}: READDIR offsets are indexes into the
 *       entries an open directory has read, so a listing never repeats or skips a name while the
 *       directory changes.</li>
 *   <li>{@link io.strata.fuse.kernel.Rehearsal}: before the workers read the kernel's INIT, the
 *       session answers {@code fuse_rehearsal} rounds of requests of its own on the volume's
 *       reserved directory (read-only, metered apart), so that a fresh JVM meets the user's first
 *       requests with the request path compiled; the kernel holds every request until INIT is
 *       answered, so the rehearsal is the mount's time.</li>
 *   <li>{@link io.strata.fuse.kernel.Notifier}: NOTIFY_INVAL_ENTRY, NOTIFY_INVAL_INODE and
 *       NOTIFY_DELETE for changes the file system learns of behind the kernel's back, written by a
 *       thread of its own (a worker could be holding the very directory lock the kernel takes to
 *       drop an entry).</li>
 * </ul>
 *
 * <h2>Choices</h2>
 * <ul>
 *   <li>Native calls go through jnr-ffi (already there for the jnr transport) on raw addresses of
 *       direct buffers: a {@code FileChannel} on {@code /dev/fuse} would serialize every read and
 *       reply on its position lock, and closes itself when a thread blocked in it is
 *       interrupted.</li>
 *   <li>A worker serves its request to the end, blocking (a fetch from S3 may take a round trip);
 *       the kernel keeps up to 64 background requests in flight (max_background; libfuse's 12
 *       starves readahead), so the other workers stay busy. INTERRUPT is not acted on: every
 *       operation is bounded by its own timeouts.</li>
 *   <li>Whether each worker reads a cloned descriptor (FUSE_DEV_IOC_CLONE) is an option
 *       ({@code fuse_clone_fd}), off by default as measured (see the README's benchmark table).</li>
 * </ul>
 */
package io.strata.fuse.kernel;
