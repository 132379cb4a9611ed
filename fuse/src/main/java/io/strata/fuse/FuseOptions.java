package io.strata.fuse;

import io.strata.core.conf.DataSize;
import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;
import io.strata.core.conf.Options;
import io.strata.fuse.kernel.KernelSession;

import java.time.Duration;
import java.util.List;

/** Options of the FUSE mount itself: transport, kernel caches, request sizes, access. */
public final class FuseOptions implements OptionGroup {
    /** The transports: Strata's own speaker of the kernel protocol, or libfuse2 through jnr-fuse. */
    public static final String KERNEL = "kernel";
    public static final String JNR = "jnr";

    public static final Option<String> TRANSPORT = Option.builder("fuse", OptionType.STRING)
            .defaultValue(KERNEL)
            .doc("How requests reach Strata: kernel (Strata reads /dev/fuse itself: inode-based, 1MiB"
                    + " requests, READDIRPLUS, kernel cache invalidation) or jnr (libfuse2's path-based API"
                    + " through jnr-fuse, requests capped at 128KiB).")
            .check(name -> name.equals(KERNEL) || name.equals(JNR), "kernel or jnr")
            .build();

    public static final Option<Integer> THREADS = Option.builder("fuse_threads", OptionType.INT)
            .defaultValue(0)
            .doc("Worker threads serving FUSE requests (fuse=kernel); each owns one buffer of direct memory"
                    + " for a request and then its reply (max_write plus 64KiB, or max_read if larger). 0: twice"
                    + " the CPUs, at least 4 and at most 16. A worker waiting on the object store holds its thread,"
                    + " so many readers of uncached files at once may want more.")
            .check(i -> i >= 0 && i <= 1024, "from 0 (automatic) to 1024")
            .build();

    public static final Option<Boolean> CLONE_FD = Option.builder("fuse_clone_fd", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Give each FUSE worker its own cloned /dev/fuse descriptor (FUSE_DEV_IOC_CLONE) instead of"
                    + " sharing one (fuse=kernel).")
            .build();

    public static final Option<Boolean> SPLICE_READ = Option.builder("fuse_splice_read", OptionType.BOOLEAN)
            .defaultValue(true)
            .doc("Answer reads of 32 KiB or more whose pages the page cache holds on disk by splicing the page files'"
                    + " bytes to the kernel (splice(2) through a pipe per worker) instead of copying them through the"
                    + " JVM (fuse=kernel). A page this daemon wrote is lent as written; each 4 KiB chunk of a page it"
                    + " found on disk is checked against its checksum on its first read.")
            .build();

    public static final Option<Integer> REHEARSAL = Option.builder("fuse_rehearsal", OptionType.INT)
            .defaultValue(150)
            .doc("Rounds of requests a mount answers of its own before it answers the kernel (fuse=kernel): lookups"
                    + " that miss in the volume's reserved directory, its attributes and every 8th round its listing"
                    + " (~2.4 requests a round, read-only, metered apart). A fresh JVM runs its first requests"
                    + " interpreted; rehearsed, the user's first ones find the request path compiled. Measured on 2"
                    + " cores: the mount 0.70 -> 0.90s, 200 stats on the fresh mount 50-61 -> 15-38ms, a cold find of"
                    + " 10,000 files 0.18-0.32 -> 0.15-0.19s. 0: none.")
            .check(i -> i >= 0 && i <= 100_000, "from 0 (none) to 100000")
            .build();

    public static final Option<Boolean> CONFINE_JIT = Option.builder("confine_jit", OptionType.BOOLEAN)
            .defaultValue(true)
            .doc("Once the mount is up, keep the JVM's JIT compiler threads off one of the CPUs the daemon may use"
                    + " (the lowest; on 2 CPUs or more), so that compiling a fresh daemon's first requests never takes"
                    + " every CPU from the FUSE workers and the programs using the mount. Measured on 2 CPUs: a fresh"
                    + " mount's first find of 10,000 files 0.089 -> 0.071s (medians of 12 alternating mounts). false"
                    + " leaves the compilers wherever the kernel runs them.")
            .build();

    public static final Option<Boolean> XATTR = Option.builder("xattr", OptionType.BOOLEAN)
            .defaultValue(true)
            .doc("Extended attributes through the mount (fuse=kernel); security labels and POSIX ACLs are"
                    + " never supported (ENOTSUP, so `ls -l` asks for them once, not twice per file). false"
                    + " answers ENOSYS, after which the kernel sends no more xattr requests, as with JuiceFS,"
                    + " which has xattrs off unless --enable-xattr; user.* attributes and user.strata.cached"
                    + " (strata warmup --check) are then gone too.")
            .build();

    public static final Option<Boolean> WRITEBACK_CACHE = Option.builder("writeback_cache", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Let the kernel buffer writes in its page cache and send them later in large requests"
                    + " (fuse=kernel). Small writes get much faster; another client sees them only after the"
                    + " kernel flushes them (at close, fsync or memory pressure), and the kernel keeps mtime.")
            .build();

    public static final Option<Duration> NEGATIVE_TIMEOUT = Option.builder("negative_timeout", OptionType.DURATION)
            .defaultValue(Duration.ZERO)
            .doc("How long the kernel caches a name found missing (fuse=kernel); 0 asks Strata every time,"
                    + " so a name another client creates shows at once.")
            .build();

    public static final Option<Duration> ATTR_TIMEOUT = Option.builder("attr_timeout", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(1))
            .doc("How long the kernel caches file attributes.")
            .build();

    public static final Option<Duration> ENTRY_TIMEOUT = Option.builder("entry_timeout", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(1))
            .doc("How long the kernel caches name lookups.")
            .build();

    public static final Option<Boolean> KERNEL_CACHE = Option.builder("kernel_cache", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Keep file data in the kernel page cache across opens, never invalidated (data that"
                    + " only this mount changes).")
            .build();

    public static final Option<Boolean> AUTO_CACHE = Option.builder("auto_cache", OptionType.BOOLEAN)
            .defaultValue(true)
            .doc("Keep file data in the kernel page cache across opens, dropped when size or mtime changes.")
            .build();

    public static final Option<Boolean> DIRECT_IO = Option.builder("direct_io", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Bypass the kernel page cache: every read and write reaches Strata. Shared mappings (mmap) "
                    + "still work through fuse=kernel (FUSE_DIRECT_IO_ALLOW_MMAP, Linux 6.6 and later); "
                    + "through fuse=jnr they fail with ENODEV.")
            .build();

    public static final Option<Boolean> ALLOW_OTHER = Option.builder("allow_other", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Let users other than the mounting one use the mount (needs user_allow_other in"
                    + " /etc/fuse.conf when not root).")
            .build();

    public static final Option<DataSize> MAX_READ = Option.builder("max_read", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(1))
            .doc("Largest read request to ask the kernel for (fuse=jnr: libfuse2 caps requests at 128KiB). Not given,"
                    + " with fuse_splice_read, it is what a worker's pipe can splice whole: 1020KiB where pipes grow to"
                    + " 1MiB only (no CAP_SYS_RESOURCE).")
            .check(s -> s.bytes() >= 4096, "at least 4KiB")
            .build();

    public static final Option<DataSize> MAX_WRITE = Option.builder("max_write", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(1))
            .doc("Largest write request to ask the kernel for (fuse=jnr: libfuse2 caps requests at 128KiB).")
            .check(s -> s.bytes() >= 4096, "at least 4KiB")
            .build();

    public static final Option<Integer> UID = Option.builder("uid", OptionType.INT)
            .doc("Report this owner for every file instead of the stored one.")
            .check(i -> i >= 0, "a non-negative user id")
            .build();

    public static final Option<Integer> GID = Option.builder("gid", OptionType.INT)
            .doc("Report this group for every file instead of the stored one.")
            .check(i -> i >= 0, "a non-negative group id")
            .build();

    public static final Option<Integer> UMASK = Option.builder("umask", OptionType.OCTAL)
            .doc("Report permissions masked by this umask instead of the stored ones.")
            .check(i -> i >= 0 && i <= 0777, "an octal number from 000 to 777")
            .build();

    @Override
    public String title() {
        return "FUSE";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(TRANSPORT, THREADS, CLONE_FD, SPLICE_READ, REHEARSAL, CONFINE_JIT, ATTR_TIMEOUT, ENTRY_TIMEOUT, NEGATIVE_TIMEOUT,
                KERNEL_CACHE, AUTO_CACHE, DIRECT_IO, WRITEBACK_CACHE, XATTR, ALLOW_OTHER, MAX_READ, MAX_WRITE, UID, GID,
                UMASK);
    }

    /**
     * The FUSE workers (fuse=kernel): {@code fuse_threads}, or for 0 twice the CPUs, from 4 to 16.
     * The kernel hands each request to the worker that has waited longest, so the requests of a
     * few readers visit every idle worker in turn, each with its stack and its buffer gone cold in
     * the CPU's caches: on 2 CPUs, 4 workers instead of 16 took the p99 of fio's 128 KiB random reads
     * of the harness from 2.2-3.0 ms to 0.85-1.24 ms (docs/PERFORMANCE.md, twenty-second round). At
     * least 4, as a worker waiting on the object store holds its thread.
     */
    public static int workers(Options options) {
        int configured = options.get(THREADS);
        if (configured > 0) {
            return configured;
        }
        return Math.max(4, Math.min(16, 2 * Runtime.getRuntime().availableProcessors()));
    }

    /**
     * max_read as the kernel transport asks for it: the option if given; else, with spliced reads,
     * no more than a worker's pipe takes whole with the reply's header. Where pipes grow to 1 MiB
     * only (no CAP_SYS_RESOURCE) that is 1020 KiB, and a stream's reads from the disk tier are
     * spliced rather than copied (docs/PERFORMANCE.md, twenty-fourth round).
     */
    public static int kernelMaxRead(Options options) {
        int asked = KernelTransport.requestSize(options.get(MAX_READ));
        if (options.isSet(MAX_READ) || !options.get(SPLICE_READ)) {
            return asked;
        }
        int spliced = KernelTransport.requestSize(DataSize.ofBytes(KernelSession.largestSplicedRead()));
        return spliced >= asked / 2 ? Math.min(asked, spliced) : asked; // a pipe that stayed small is no guide
    }

    /** The direct memory each FUSE worker owns (fuse=kernel): one buffer for a request and then its reply. */
    public static long workerBufferBytes(Options options) {
        return KernelSession.workerBufferSize(KernelTransport.requestSize(options.get(MAX_READ)),
                KernelTransport.requestSize(options.get(MAX_WRITE)));
    }
}
