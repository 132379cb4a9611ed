package io.strata.cli;

import io.strata.fuse.MountPoints;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code strata warmup PATH...}: loads files into a mount's page cache by reading them through
 * the mount, several at once; {@code --check} reports how much of each is cached instead (from the
 * mount's virtual {@code user.strata.cached} attribute).
 *
 * <p>Reads go around the kernel's page cache where the kernel allows it (O_DIRECT), so data the
 * kernel already holds still reaches Strata; otherwise plain reads are used, and pages the kernel
 * serves itself are not loaded (see docs/CACHE.md). A progress bar is drawn on a terminal; other
 * output gets one line per file.
 */
@Command(name = "warmup", sortOptions = false,
        description = {"Load files (directories: every file under them) into a Strata mount's page cache.",
                "PATHs are inside a mount; the files are read through it. --check reports what is cached."})
final class WarmupCommand extends StrataSubcommand {
    private static final int BUFFER = 1 << 20;
    private static final long PROGRESS_INTERVAL_MILLIS = 200;
    private static final String XATTR = "strata.cached"; // user.strata.cached, as UserDefinedFileAttributeView names it

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Files or directories inside a Strata mount.")
    List<Path> paths;

    @Option(names = {"-j", "--threads"}, defaultValue = "4", paramLabel = "N",
            description = "Files read at once (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--check", description = "Report how much of each file is cached; read nothing.")
    boolean check;


    @Override
    int run() throws Exception {
        if (threads < 1) {
            throw CliException.badInput("--threads must be at least 1, not " + threads);
        }
        List<Path> files = new ArrayList<>();
        for (Path path : paths) {
            Path real = realPath(path);
            if (findMount(real).isEmpty()) {
                throw CliException.badInput(path + " is not inside a Strata mount; give a path under the"
                        + " mountpoint of 'strata mount'");
            }
            files.addAll(filesUnder(real));
        }
        return check ? check(files) : warm(files);
    }

    private static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (NoSuchFileException e) {
            throw CliException.badInput(path + " does not exist");
        } catch (IOException e) {
            throw CliException.failure("cannot resolve " + path + ": " + Messages.describe(e));
        }
    }

    /** The Strata mount holding {@code path}: the longest fuse.strata mountpoint above it. */
    static Optional<MountPoints.Entry> findMount(Path path) {
        return MountPoints.table().stream()
                .filter(e -> e.fsType().equals("fuse.strata") && path.startsWith(e.mountPoint()))
                .max(Comparator.comparingInt(e -> e.mountPoint().getNameCount()));
    }

    private static List<Path> filesUnder(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            throw CliException.failure("cannot list " + root + ": " + Messages.describe(e));
        }
    }

    // ---- --check ----------------------------------------------------------------------------

    private int check(List<Path> files) {
        long cachedTotal = 0;
        long sizeTotal = 0;
        for (Path file : files) {
            long[] report = cachedReport(file);
            cachedTotal += report[0];
            sizeTotal += report[1];
            out().printf("%s  %s of %s cached  %s%n", Units.percent(report[0], report[1]), Units.bytes(report[0]),
                    Units.bytes(report[1]), file);
        }
        out().printf("total: %s of %s cached (%s) in %d files%n", Units.bytes(cachedTotal), Units.bytes(sizeTotal),
                Units.percent(cachedTotal, sizeTotal).trim(), files.size());
        return ExitCodes.OK;
    }

    /** {cached bytes, size} from the mount's virtual attribute. */
    static long[] cachedReport(Path file) {
        try {
            UserDefinedFileAttributeView view = Files.getFileAttributeView(file, UserDefinedFileAttributeView.class);
            ByteBuffer value = ByteBuffer.allocate(64);
            view.read(XATTR, value);
            String[] parts = new String(value.array(), 0, value.position(), StandardCharsets.US_ASCII).trim().split(" ");
            return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
        } catch (IOException | RuntimeException e) {
            throw CliException.failure("cannot read the cache state of " + file + " (" + Messages.describe(e)
                    + "); is the mount a Strata mount of this version?");
        }
    }

    // ---- warming ----------------------------------------------------------------------------

    private int warm(List<Path> files) throws InterruptedException {
        long total = 0;
        for (Path file : files) {
            try {
                total += Files.size(file);
            } catch (IOException e) {
                // counted as 0; the read reports the problem
            }
        }
        boolean bar = onTerminal();
        Progress progress = new Progress(out(), bar, files.size(), total);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<String> failures = new ArrayList<>();
        long startNs = System.nanoTime();
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (Path file : files) {
                results.add(pool.submit(() -> {
                    long n = readThrough(file, progress.bytes);
                    progress.fileDone(file, n);
                    return n;
                }));
            }
            for (int i = 0; i < results.size(); i++) {
                while (true) {
                    try {
                        results.get(i).get(PROGRESS_INTERVAL_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
                        break;
                    } catch (java.util.concurrent.TimeoutException e) {
                        progress.draw();
                    } catch (java.util.concurrent.ExecutionException e) {
                        failures.add(files.get(i) + ": " + Messages.describe(e.getCause()));
                        break;
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        progress.finish();
        double seconds = (System.nanoTime() - startNs) / 1e9;
        out().printf("warmed %d files, %s in %.1f s%n", files.size() - failures.size(), Units.bytes(progress.bytes.get()),
                seconds);
        failures.forEach(f -> error("cannot read " + f));
        return failures.isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /**
     * Reads a file to its end through the mount: with O_DIRECT where the kernel takes it (a short
     * read is then the end of the file), else, or from where O_DIRECT gave up, with plain reads.
     */
    private static long readThrough(Path file, AtomicLong counter) throws IOException {
        long[] position = {0};
        try (FileChannel direct = FileChannel.open(file, StandardOpenOption.READ,
                com.sun.nio.file.ExtendedOpenOption.DIRECT)) {
            int align = (int) Math.max(512, Files.getFileStore(file).getBlockSize());
            if (readLoop(direct, ByteBuffer.allocateDirect(BUFFER + align).alignedSlice(align), position, counter,
                    true)) {
                return position[0];
            }
        } catch (IOException | UnsupportedOperationException e) {
            // no O_DIRECT here (or not at this offset): plain reads from where it stopped
        }
        try (FileChannel plain = FileChannel.open(file, StandardOpenOption.READ)) {
            readLoop(plain, ByteBuffer.allocateDirect(BUFFER), position, counter, false);
            return position[0];
        }
    }

    /** Reads from {@code position[0]} on, advancing it; true once the end of the file is reached. */
    private static boolean readLoop(FileChannel channel, ByteBuffer buffer, long[] position, AtomicLong counter,
                                    boolean shortReadIsEnd) throws IOException {
        while (true) {
            buffer.clear();
            int n = channel.read(buffer, position[0]);
            if (n <= 0) {
                return true;
            }
            position[0] += n;
            counter.addAndGet(n);
            if (shortReadIsEnd && n < buffer.capacity()) {
                return true;
            }
        }
    }

    /** Progress: a redrawn bar on a terminal, one line per finished file otherwise. */
    private static final class Progress {
        private static final int WIDTH = 30;
        final AtomicLong bytes = new AtomicLong();
        private final PrintWriter out;
        private final boolean bar;
        private final int files;
        private final long total;
        private int done;

        Progress(PrintWriter out, boolean bar, int files, long total) {
            this.out = out;
            this.bar = bar;
            this.files = files;
            this.total = total;
        }

        synchronized void fileDone(Path file, long n) {
            done++;
            if (!bar) {
                out.printf("warmed %s (%s)%n", file, Units.bytes(n));
                out.flush();
            }
        }

        synchronized void draw() {
            if (!bar) {
                return;
            }
            long n = bytes.get();
            int filled = total == 0 ? WIDTH : (int) Math.min(WIDTH, WIDTH * n / total);
            out.printf("\r[%s%s] %s %s / %s, %d/%d files", "#".repeat(filled), " ".repeat(WIDTH - filled),
                    Units.percent(n, total), Units.bytes(n), Units.bytes(total), done, files);
            out.flush();
        }

        synchronized void finish() {
            if (bar) {
                draw();
                out.println();
            }
        }
    }
}
