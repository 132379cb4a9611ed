package io.strata.client;

import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sweep of a dead client's session against the unmount of the client sweeping, over a real
 * source directory and a real SQLite metastore shared by two clients in this JVM.
 */
class SessionSweepTest {
    private static final Caller USER = new Caller(1000, 1000);
    /** Files the dead session keeps: enough that its sweep is still under way when the unmount comes. */
    private static final int KEPT = 1500;
    private static final Duration SWEEP_STARTS = Duration.ofSeconds(10);

    @TempDir
    Path source;
    @TempDir
    Path state;

    @Test
    void anUnmountDuringASweepLeavesNoDataThatNoLinkNames() throws Exception {
        // A client whose sessions expire in an hour beats every 15 minutes: to a client whose
        // sessions expire in 400 ms it is dead 400 ms after its last change to its session.
        StrataFileSystem holder = StrataFileSystem.open(source.toUri(), options("1h"));
        try {
            Path keptData = keepUnlinkedAndOpen(holder, KEPT);
            assertThat(filesIn(keptData)).as("data the holder keeps").hasSize(KEPT);
            Thread.sleep(600);

            StrataFileSystem sweeper = StrataFileSystem.open(source.toUri(), options("400ms"));
            try (MetaStore probe = MetaStores.open(metaUrl())) {
                awaitSweepUnderWay(probe, keptData);
            } finally {
                sweeper.close(); // the unmount, while its first beat sweeps the holder's session
            }

            try (MetaStore probe = MetaStores.open(metaUrl())) {
                assertThat(filesIn(keptData)).as("kept data whose link the sweep removed")
                        .isSubsetOf(linksIn(probe, keptData));
            }
        } finally {
            closeSwept(holder);
        }
    }

    @Test
    void aSweptSessionLeavesNothingInTheSource() throws Exception {
        StrataFileSystem holder = StrataFileSystem.open(source.toUri(), options("1h"));
        try {
            Path keptData = keepUnlinkedAndOpen(holder, 3);
            Thread.sleep(600);

            try (StrataFileSystem sweeper = StrataFileSystem.open(source.toUri(), options("400ms"))) {
                long deadline = System.nanoTime() + SWEEP_STARTS.toNanos();
                while (Files.exists(keptData)) {
                    assertThat(System.nanoTime()).as("the swept session's directory still in the source after "
                            + SWEEP_STARTS + ", holding " + filesIn(keptData)).isLessThan(deadline);
                    Thread.sleep(10);
                }
            }
        } finally {
            closeSwept(holder);
        }
    }

    /**
     * Makes {@code files} files through {@code holder} and unlinks each while open, so its session
     * keeps them; returns that session's directory in the source, where their data now is.
     */
    private Path keepUnlinkedAndOpen(StrataFileSystem holder, int files) throws IOException {
        for (int i = 0; i < files; i++) {
            long fh = holder.create("/kept" + i, 0644, USER); // open until the holder closes
            holder.write(fh, ByteBuffer.wrap("kept".getBytes(StandardCharsets.UTF_8)), 0);
            holder.flush(fh); // nothing left for the holder's own unmount to write
            holder.unlink("/kept" + i); // its data moves under the holder's session directory
        }
        return onlySessionWithData();
    }

    /** Closes a client whose session was swept while it lived: its close finds its keep-alive links gone. */
    private static void closeSwept(StrataFileSystem holder) {
        try {
            holder.close();
        } catch (IOException expected) {
            // what it kept is gone already
        }
    }

    private Options options(String sessionExpire) {
        return new OptionsLoader(OptionRegistry.load())
                .set("state_dir", state.toString(), "test")
                .set("meta", metaUrl(), "test")
                .set("session_expire", sessionExpire, "test")
                .build();
    }

    private String metaUrl() {
        return "sqlite://" + state.resolve("meta.db");
    }

    /** The under-storage directory of the one session that keeps data. */
    private Path onlySessionWithData() throws IOException {
        try (Stream<Path> sessions = Files.list(source.resolve(Sessions.RESERVED).resolve(Sessions.SESSIONS))) {
            List<Path> withData = new ArrayList<>();
            for (Path session : sessions.toList()) {
                if (!filesIn(session).isEmpty()) {
                    withData.add(session);
                }
            }
            assertThat(withData).as("sessions keeping data").hasSize(1);
            return withData.get(0);
        }
    }

    private static Set<String> filesIn(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).map(f -> f.getFileName().toString())
                    .collect(TreeSet::new, Set::add, Set::addAll);
        }
    }

    /** Until the sweeper's first beat has removed one of the session's links. */
    private static void awaitSweepUnderWay(MetaStore meta, Path session) throws Exception {
        long deadline = System.nanoTime() + SWEEP_STARTS.toNanos();
        while (linksIn(meta, session).size() == KEPT) {
            assertThat(System.nanoTime()).as("no sweep within " + SWEEP_STARTS).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** The keep-alive links in a session's directory in the metastore, by its name in the under storage. */
    private static Set<String> linksIn(MetaStore meta, Path session) throws IOException {
        Set<String> names = new TreeSet<>();
        Optional<Dentry> reserved = meta.lookup(Inode.ROOT, Sessions.RESERVED);
        Optional<Dentry> sessions = reserved.isPresent()
                ? meta.lookup(reserved.get().ino(), Sessions.SESSIONS) : Optional.empty();
        Optional<Dentry> own = sessions.isPresent()
                ? meta.lookup(sessions.get().ino(), session.getFileName().toString()) : Optional.empty();
        if (own.isPresent()) {
            Directories.forEachEntry(meta, own.get().ino(), dentry -> names.add(dentry.name()));
        }
        return names;
    }
}
