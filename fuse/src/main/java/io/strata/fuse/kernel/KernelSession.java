package io.strata.fuse.kernel;

import io.strata.client.StrataFileSystem;
import io.strata.client.metrics.StrataMeters;
import io.strata.fuse.observe.ControlFiles;
import io.strata.fuse.observe.MountStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAccumulator;

import static java.util.Objects.requireNonNull;

/**
 * A mounted FUSE connection served from Java: owns the device descriptor(s) and a fixed pool of
 * worker threads, each with its own request and reply buffers, reading a request, serving it and
 * replying, until the kernel reports the file system unmounted.
 *
 * <p>The pool never grows or shrinks: a thread is made once per mount, not per burst of requests
 * (libfuse2's pool creates and destroys threads under load, each paying a JVM attach). A worker
 * blocks while it serves a request (a fetch from S3 may take a round trip); the kernel's async
 * reads and parallel directory operations keep the others busy meanwhile.
 */
public final class KernelSession implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KernelSession.class);
    /** Room for a WRITE's headers in front of max_write bytes of data. */
    private static final int REQUEST_HEADROOM = 64 * 1024;

    private final Path mountPoint;
    private final FuseDevice device;
    private final KernelSettings settings;
    private final Operations operations;
    private final LookupCounts lookups = new LookupCounts();
    private final Init init;
    private final Notifier notifier;
    private final MountStats stats;
    private final List<Thread> workers = new ArrayList<>();
    private final List<FuseDevice> clones = new ArrayList<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final LongAccumulator largestRead = new LongAccumulator(Math::max, 0);
    private final LongAccumulator largestWrite = new LongAccumulator(Math::max, 0);

    private KernelSession(Path mountPoint, FuseDevice device, StrataFileSystem fs, KernelSettings settings,
                          MountStats stats) {
        this.mountPoint = mountPoint;
        this.device = device;
        this.settings = settings;
        this.stats = stats;
        this.notifier = new Notifier(device, lookups);
        this.operations = new Operations(fs, settings, lookups, notifier, stats.controlFiles());
        stats.meters().bindNotifications(notifier::sent, notifier::dropped);
        this.init = new Init(settings);
    }

    /**
     * The largest read a worker can splice to the kernel whole, header and all; 0 where reads are
     * not spliced on this machine.
     */
    public static int largestSplicedRead() {
        return SplicePipe.largestSplicedRead();
    }

    /** Binds libc now, so that the mount that follows does not wait for it. */
    public static void prepare() {
        LibC.get();
    }

    /** Mounts {@code fs} at {@code mountPoint} and starts the workers; the kernel then sends INIT. */
    public static KernelSession mount(Path mountPoint, StrataFileSystem fs, KernelSettings settings,
                                      MountStats stats) throws IOException {
        requireNonNull(fs, "fs is null");
        requireNonNull(stats, "stats is null");
        FuseDevice device = KernelMount.mount(mountPoint, settings);
        KernelSession session = new KernelSession(mountPoint, device, fs, settings, stats);
        try {
            session.rehearse(fs);
            session.start();
            fs.setChangeListener(session.notifier);
        } catch (IOException | RuntimeException e) {
            session.close();
            throw e;
        }
        return session;
    }

    /**
     * Runs the {@link Rehearsal} before the workers start, so before the kernel's INIT is answered:
     * its requests are metered apart (the mount's meters count the kernel's requests only), and the
     * lookup counts its listing took are dropped, since the kernel holds none yet. It only makes the
     * first requests faster, so a rehearsal that cannot run or stops early never fails the mount.
     */
    private void rehearse(StrataFileSystem fs) {
        int rounds = settings.rehearsalRounds();
        if (rounds == 0) {
            return;
        }
        long start = System.nanoTime();
        try {
            OptionalLong reserved = fs.reservedDirectory();
            if (reserved.isEmpty()) {
                log.info("no rehearsal: the volume has no reserved directory yet (no read-write mount opened it)");
                return;
            }
            MountStats offTheRecord = MountStats.of(StrataMeters.create());
            int answered = new Rehearsal(reserved.getAsLong(), rounds)
                    .run((request, out) -> handle(request, out, offTheRecord));
            log.info("rehearsed {} requests in {} ms", answered, (System.nanoTime() - start) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            log.warn("the mount's rehearsal stopped early ({}); its first requests may be slower", e.toString());
        } finally {
            lookups.clear();
        }
    }

    private void start() throws IOException {
        CountDownLatch running = new CountDownLatch(settings.threads());
        for (int i = 0; i < settings.threads(); i++) {
            FuseDevice own = device;
            if (settings.cloneFd() && i > 0) {
                own = device.cloneDevice();
                clones.add(own);
            }
            FuseDevice workerDevice = own;
            Thread worker = new Thread(() -> {
                try {
                    serve(workerDevice);
                } catch (Throwable t) {
                    log.error("FUSE worker {} stopped", Thread.currentThread().getName(), t);
                } finally {
                    running.countDown();
                }
            }, "strata-fuse-" + i);
            worker.setDaemon(true);
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        Thread watcher = new Thread(() -> {
            try {
                running.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ended.complete(null);
        }, "strata-fuse-ended");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * The bytes of direct memory each worker owns: one buffer that takes the largest request (a
     * WRITE of max_write bytes and its headers) and then the largest reply payload (max_read).
     */
    public static int workerBufferSize(int maxRead, int maxWrite) {
        return Math.max(maxWrite + REQUEST_HEADROOM, maxRead);
    }

    /** One worker: its own buffers, a request at a time, until the connection ends. */
    private void serve(FuseDevice own) throws IOException {
        // One buffer for the request and then its reply's payload (Request#overwrite): direct
        // memory is zeroed, so resident, when allocated, and a second buffer cost each worker 1 MiB.
        ByteBuffer in = ByteBuffer.allocateDirect(workerBufferSize(settings.maxRead(), settings.maxWrite()))
                .order(ByteOrder.nativeOrder());
        Request request = new Request(in);
        SplicePipe pipe = settings.spliceReads() ? SplicePipe.open() : null;
        try {
            Replies out = new Replies(own, request, pipe);
            while (true) {
                int n = own.read(in);
                if (n < 0) {
                    return;
                }
                if (!request.decode(n)) {
                    log.warn("ignored a malformed FUSE request of {} bytes", n);
                    continue;
                }
                try {
                    handle(request, out, stats);
                } catch (RuntimeException | Error e) {
                    // Outside the operation, which Operations.answer answers whatever it throws: the
                    // meters, the access log, a FORGET's counts. The pool keeps this worker.
                    try {
                        log.error("FUSE worker {}: {} failed outside its operation", Thread.currentThread().getName(),
                                Opcode.name(request.opcode()), e);
                    } catch (RuntimeException | Error logging) {
                        // Nothing is left to report it with.
                    }
                }
            }
        } finally {
            if (pipe != null) {
                pipe.close();
            }
        }
    }

    private void handle(Request request, Replies out, MountStats stats) {
        switch (request.opcode()) {
            case Opcode.INIT -> init.reply(request, out);
            case Opcode.FORGET -> forget(request.nodeId(), request.u64());
            case Opcode.BATCH_FORGET -> {
                int count = request.u32();
                request.skip(4);
                for (int i = 0; i < count; i++) {
                    long nodeId = request.u64();
                    forget(nodeId, request.u64());
                }
            }
            // A request in progress runs to its end: Strata's operations are bounded by their own
            // timeouts (S3 retries), and the kernel needs no answer to an INTERRUPT.
            case Opcode.INTERRUPT -> { }
            case Opcode.DESTROY -> out.ok(request);
            default -> {
                if (request.opcode() == Opcode.READ) {
                    largestRead.accumulate(Integer.toUnsignedLong(request.peekU32(16)));
                } else if (request.opcode() == Opcode.WRITE) {
                    largestWrite.accumulate(Integer.toUnsignedLong(request.peekU32(16)));
                }
                // The access log's text of the arguments is taken now: a reply's payload overwrites them.
                String logged = stats.accessLog().active() && !ControlFiles.isControl(request.nodeId())
                        ? RequestText.arguments(request) : null;
                long start = System.nanoTime();
                operations.serve(request, out);
                served(request, out, System.nanoTime() - start, logged, stats);
            }
        }
    }

    /**
     * Meters the request just answered, and logs it with {@code logged}, its arguments, when
     * anyone reads the access log. Reads of the control files are never logged (a reader of
     * .accesslog would read its own reads), nor are requests that came before the log had a reader.
     */
    private void served(Request request, Replies out, long nanos, String logged, MountStats stats) {
        String op = Opcode.name(request.opcode());
        int errno = out.lastErrno();
        stats.meters().served(op, errno, nanos);
        String result = null;
        if (errno == 0 && request.opcode() == Opcode.READ) {
            stats.meters().read(out.lastPayload());
            if (out.lastSpliced()) {
                stats.meters().spliced(out.lastPayload());
            }
            result = Integer.toString(out.lastPayload());
        } else if (errno == 0 && request.opcode() == Opcode.WRITE) {
            int size = request.peekU32(16);
            stats.meters().written(Integer.toUnsignedLong(size));
            result = Integer.toUnsignedString(size);
        }
        if (logged != null) {
            stats.accessLog().record(request.uid(), request.gid(), request.pid(), op, logged, errno, result, nanos);
        }
    }

    private void forget(long nodeId, long count) {
        if (ControlFiles.isControl(nodeId)) {
            return; // never counted: the control files are not the metastore's
        }
        if (lookups.forget(nodeId, count)) {
            notifier.forgotten(nodeId);
        }
    }

    public Path mountPoint() {
        return mountPoint;
    }

    /** Completes when every worker has stopped: the file system was unmounted. */
    public CompletableFuture<Void> ended() {
        return ended;
    }

    /** The largest read and write requests the kernel sent, for the log and the notes. */
    public String requestSizes() {
        return "largest read request " + largestRead.get() + " bytes, largest write request "
                + largestWrite.get() + " bytes; " + init.describe();
    }

    /** Closes the descriptors; the workers end once the kernel has let go of the mount. */
    @Override
    public void close() {
        notifier.close();
        clones.forEach(FuseDevice::close);
        device.close();
    }
}
