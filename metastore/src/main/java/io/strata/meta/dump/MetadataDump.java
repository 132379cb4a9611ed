package io.strata.meta.dump;

import io.strata.core.concurrent.DaemonThreads;
import io.strata.meta.VolumeFormat;
import io.strata.meta.MetaStore;
import io.strata.meta.dump.Loader.LoadResult;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Dumps a volume's metadata to one JSON document and loads it back, into any engine: the entry
 * points of this package. The format is in the header of {@code DumpFormat.java}; how a dump
 * stays fast and small in memory in {@link TreeWalker}, how a load does in {@link Loader}.
 */
public final class MetadataDump {
    private MetadataDump() {}

    /**
     * How a dump runs.
     *
     * @param keepSecrets keep settings that hold secrets (left out by default)
     * @param pageSize entries per fetch (one query, script or pipeline)
     * @param window pages fetched ahead of the writer, counted in the order the walk needs them
     *     (see {@code TreeWalker})
     */
    public record DumpOptions(boolean keepSecrets, int pageSize, int window) {
        public DumpOptions {
            checkPositive(pageSize, "pageSize");
            checkPositive(window, "window");
        }

        public static DumpOptions defaults() {
            return new DumpOptions(false, 1000, 16);
        }

        public DumpOptions withKeepSecrets(boolean keep) {
            return new DumpOptions(keep, pageSize, window);
        }
    }

    /**
     * How a load runs.
     *
     * @param force load into a volume that is not empty, after emptying it
     * @param batchSize rows per batch (one transaction, pipeline or multi-row insert)
     * @param inFlight batches written at once, or parsed and waiting to be
     */
    public record LoadOptions(boolean force, int batchSize, int inFlight) {
        public LoadOptions {
            checkPositive(batchSize, "batchSize");
            checkPositive(inFlight, "inFlight");
        }

        public static LoadOptions defaults() {
            return new LoadOptions(false, 2000, 8);
        }

        public LoadOptions withForce(boolean force) {
            return new LoadOptions(force, batchSize, inFlight);
        }
    }

    /** What a dump wrote: entries (a hard link counts at each name), and names whose inode vanished meanwhile. */
    public record DumpResult(long entries, long vanished, String consistency, List<String> secretsRemoved) {}

    /** What a load wrote, and how many dumped nlinks it found wrong. */
    public record LoadSummary(long entries, long inodes, long usedBytes, long nlinkMismatches) {}

    /** Writes the whole volume to {@code out} (flushed, not closed) as JSON. */
    public static DumpResult dump(MetaStore store, OutputStream out, DumpOptions options, Progress progress)
            throws IOException {
        return dump(store, out, DumpEncoding.JSON, options, progress);
    }

    /** Writes the whole volume to {@code out} (flushed, not closed) in {@code encoding}. */
    public static DumpResult dump(MetaStore store, OutputStream out, DumpEncoding encoding, DumpOptions options,
            Progress progress) throws IOException {
        requireNonNull(store, "store is null");
        requireNonNull(encoding, "encoding is null");
        requireNonNull(out, "out is null");
        requireNonNull(options, "options is null");
        requireNonNull(progress, "progress is null");
        try (DumpSource source = store.dumpSource()) {
            Map<String, String> settings = new TreeMap<>(source.settings());
            settings.remove(VolumeFormat.VERSION_KEY);
            List<String> secretsRemoved = new ArrayList<>();
            if (!options.keepSecrets()) {
                for (Map.Entry<String, String> setting : Map.copyOf(settings).entrySet()) {
                    if (DumpFormat.isSecret(setting.getKey(), setting.getValue())) {
                        settings.remove(setting.getKey());
                        secretsRemoved.add(setting.getKey());
                    }
                }
                secretsRemoved.sort(null);
            }
            DumpCounters counters = source.counters();
            progress.start("dump", counters.inodes());
            ExecutorService fetchers = Executors.newFixedThreadPool(Math.max(1, source.parallelism()),
                    DaemonThreads.numbered("strata-dump"));
            try (DumpWriter writer = new DumpWriter(out, encoding)) {
                writer.header(settings, secretsRemoved, counters);
                TreeWalker walker = new TreeWalker(source, writer, fetchers, options.pageSize(),
                        Math.max(options.window(), source.parallelism()), progress);
                walker.walk(source.root());
                writer.finish();
                progress.finish();
                if (walker.vanished() > 0) {
                    progress.warn(walker.vanished() + " names were left out because their inode was removed while"
                            + " the dump ran (" + source.consistency() + ")");
                }
                return new DumpResult(walker.entries(), walker.vanished(), source.consistency(), secretsRemoved);
            } catch (IOException | RuntimeException e) {
                progress.fail();
                throw e;
            } finally {
                stop(fetchers);
            }
        }
    }

    /**
     * Loads the dump read from {@code in} (not closed; JSON or binary, told by its first bytes)
     * into {@code store}, which must be empty
     * unless {@code options.force()}. On any failure — a malformed or truncated dump, an engine
     * error — the volume is left empty and a {@link LoadFailedException} says so.
     *
     * @throws TargetNotEmptyException if the volume is not empty and force is off (nothing was changed)
     */
    public static LoadSummary load(MetaStore store, InputStream in, LoadOptions options, Progress progress)
            throws IOException {
        requireNonNull(in, "in is null");
        return load(store, options, progress, visitor -> DumpReader.read(in, visitor));
    }

    /** Writes a made-up tree of about {@code inodes} inodes into an empty {@code store}, through the load path. */
    public static LoadSummary generate(MetaStore store, long inodes, long seed, LoadOptions options, Progress progress)
            throws IOException {
        return load(store, options, progress, visitor -> new TreeGenerator(inodes, seed).generate(visitor));
    }

    private static LoadSummary load(MetaStore store, LoadOptions options, Progress progress, Input input)
            throws IOException {
        requireNonNull(store, "store is null");
        requireNonNull(options, "options is null");
        requireNonNull(progress, "progress is null");
        try (LoadTarget target = store.loadTarget()) {
            Optional<String> nonEmpty = target.nonEmpty();
            if (nonEmpty.isPresent()) {
                if (!options.force()) {
                    throw new TargetNotEmptyException(target.describe() + " is not empty: " + nonEmpty.get()
                            + "; load into an empty volume, or add --force to replace everything in it");
                }
                target.clear();
            }
            target.begin();
            int threads = Math.max(1, target.parallelism());
            WritePipeline pipeline = new WritePipeline(target, threads, Math.max(options.inFlight(), threads));
            try {
                Loader loader = new Loader(target, pipeline, options.batchSize(), progress);
                input.readInto(loader);
                LoadResult result = loader.finish();
                return new LoadSummary(result.entries(), result.inodes(), result.usedBytes(),
                        result.nlinkMismatches());
            } catch (IOException | RuntimeException | Error e) {
                progress.fail();
                throw undo(target, pipeline, e);
            } finally {
                pipeline.close();
            }
        }
    }

    /** Stops the writers and empties the volume; the exception to throw says whether that worked. */
    private static LoadFailedException undo(LoadTarget target, WritePipeline pipeline, Throwable failure) {
        String cause = failure.getMessage() != null ? failure.getMessage() : failure.toString();
        try {
            pipeline.abandon();
            target.abort();
        } catch (IOException | RuntimeException e) {
            LoadFailedException thrown = new LoadFailedException(cause + "; emptying " + target.describe()
                    + " afterwards failed too (" + e.getMessage() + "): it is partly loaded, load again with --force",
                    failure, false);
            thrown.addSuppressed(e);
            return thrown;
        }
        return new LoadFailedException(cause + "; " + target.describe() + " was left empty", failure, true);
    }

    /** Stops the fetch threads and waits for them, so that none still uses the source when it closes. */
    private static void stop(ExecutorService fetchers) throws InterruptedIOException {
        fetchers.shutdownNow();
        try {
            fetchers.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while stopping the dump");
        }
    }

    private static void checkPositive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }

    /** Where a load's entries come from. */
    @FunctionalInterface
    private interface Input {
        void readInto(DumpVisitor visitor) throws IOException;
    }
}
