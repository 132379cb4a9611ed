package io.strata.fuse.kernel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JVM's JIT compiler threads, kept off one of the CPUs this process may use while someone
 * holds the confinement (each open mount does).
 *
 * <p>Why: a fresh daemon compiles the code of its first requests while it serves them, and on a
 * 2-CPU machine its two compiler threads (C1 and C2) can hold both CPUs at once; the FUSE worker
 * serving a request and the program that sent it then wait for a CPU at every request. Measured on
 * 2 CPUs (docs/PERFORMANCE.md, forty-fifth round): C2 alone used 0.08-0.1 s of CPU during the
 * 0.07-0.1 s of a fresh mount's first {@code find} of 10,000 files, and with the compilers kept to
 * one CPU the {@code find} took 0.071 s instead of 0.089 s (medians of 12 alternating mounts). The
 * compilers compile the same code, a little later; the CPU they leave free is the lowest one the
 * caller may use.
 *
 * <p>A thread inherits the affinity of the thread that starts it, and HotSpot starts the compiler
 * threads it adds under load from a compiler thread, so those are kept off that CPU too.
 */
public final class CompilerThreads implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CompilerThreads.class);
    private static final Path TASKS = Path.of("/proc/self/task");
    /** HotSpot's compiler threads' names ("C1 CompilerThread0", ...) as the kernel keeps them: 15 bytes. */
    private static final String C1 = "C1 CompilerThre";
    private static final String C2 = "C2 CompilerThre";
    /** Room for 1,024 CPUs, as glibc's {@code cpu_set_t}. */
    private static final int MASK_WORDS = 16;
    private static final long MASK_BYTES = MASK_WORDS * Long.BYTES;

    /**
     * The process's one confinement and the handles on it: the first {@link #confine} makes it, the
     * last {@link #close} undoes it, so mounts in one JVM (tests, tools) may open and close in any order.
     */
    private static final Object LOCK = new Object();
    private static Confinement current;
    private static int holders;

    /** The CPU kept free, and each confined thread's CPUs before, to give back. */
    private record Confinement(int freeCpu, Map<Integer, long[]> before) {}

    private final Confinement confinement;
    private boolean closed;

    private CompilerThreads(Confinement confinement) {
        this.confinement = confinement;
    }

    /**
     * Keeps this process's compiler threads off the lowest CPU the calling thread may use, or holds
     * the confinement another caller made; empty, changing nothing, when the caller may use only one
     * CPU, when no compiler thread is found (a JVM other than HotSpot) or when the kernel refuses.
     * Never throws: the mount works either way.
     */
    public static Optional<CompilerThreads> confine() {
        synchronized (LOCK) {
            if (current == null) {
                current = confineNow().orElse(null);
            }
            if (current == null) {
                return Optional.empty();
            }
            holders++;
            return Optional.of(new CompilerThreads(current));
        }
    }

    private static Optional<Confinement> confineNow() {
        try {
            LibC libc = LibC.get();
            long[] mine = new long[MASK_WORDS];
            if (libc.sched_getaffinity(0, MASK_BYTES, mine) != 0) {
                log.debug("JIT compilers left unconfined: sched_getaffinity failed (errno {})", LibC.errno());
                return Optional.empty();
            }
            BitSet cpus = BitSet.valueOf(mine);
            if (cpus.cardinality() < 2) {
                return Optional.empty();
            }
            int free = cpus.nextSetBit(0);
            Map<Integer, long[]> before = new LinkedHashMap<>();
            for (int tid : compilerThreads()) {
                long[] threadCpus = new long[MASK_WORDS];
                if (libc.sched_getaffinity(tid, MASK_BYTES, threadCpus) != 0) {
                    continue; // ended since it was listed
                }
                BitSet kept = BitSet.valueOf(threadCpus);
                kept.clear(free);
                if (kept.isEmpty()) {
                    continue; // a thread confined to that CPU by someone else: left as it is
                }
                if (libc.sched_setaffinity(tid, MASK_BYTES, Arrays.copyOf(kept.toLongArray(), MASK_WORDS)) == 0) {
                    before.put(tid, threadCpus);
                } else {
                    log.debug("JIT compiler thread {} left unconfined (errno {})", tid, LibC.errno());
                }
            }
            if (before.isEmpty()) {
                return Optional.empty();
            }
            log.info("JIT compiler threads kept off CPU {} ({} threads)", free, before.size());
            return Optional.of(new Confinement(free, before));
        } catch (IOException | RuntimeException | LinkageError e) {
            log.debug("JIT compilers left unconfined", e);
            return Optional.empty();
        }
    }

    /** The CPU the compiler threads are kept off. */
    public int freeCpu() {
        return confinement.freeCpu();
    }

    /** The ids of the threads confined. */
    public List<Integer> threads() {
        return List.copyOf(confinement.before().keySet());
    }

    /** Lets go of the confinement; the last holder gives each confined thread that still runs its CPUs back. */
    @Override
    public void close() {
        synchronized (LOCK) {
            if (closed) {
                return;
            }
            closed = true;
            if (--holders == 0) {
                LibC libc = LibC.get();
                current.before().forEach((tid, mask) -> libc.sched_setaffinity(tid, MASK_BYTES, mask));
                current = null;
            }
        }
    }

    /** The ids of this process's compiler threads, read from {@code /proc/self/task/<tid>/comm}. */
    static List<Integer> compilerThreads() throws IOException {
        List<Integer> found = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                } catch (IOException ended) {
                    continue;
                }
                if (name.startsWith(C1) || name.startsWith(C2)) {
                    found.add(Integer.parseInt(task.getFileName().toString()));
                }
            }
        }
        return found;
    }
}
