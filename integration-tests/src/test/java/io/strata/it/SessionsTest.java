package io.strata.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sessions across real processes: a file unlinked while open is kept for its holder, and when
 * the holder's daemon dies, another client of the volume removes what it kept once its session
 * expired.
 */
class SessionsTest {
    private static final Duration EXPIRE = Duration.ofSeconds(2);

    @TempDir
    Path base;
    private Path source;
    private Path holder;
    private Path survivor;
    private String options;
    private Process holding;

    @BeforeEach
    void mountTwoClients() throws IOException {
        source = Files.createDirectories(base.resolve("source"));
        holder = Files.createDirectories(base.resolve("holder"));
        survivor = Files.createDirectories(base.resolve("survivor"));
        options = "meta=sqlite://" + base.resolve("meta.db") + ",session_expire=" + EXPIRE.toMillis() + "ms";
        strata("mount", source.toString(), holder.toString(), "-o", options).assertOk();
        strata("mount", source.toString(), survivor.toString(), "-o", options).assertOk();
    }

    @AfterEach
    void unmount() {
        if (holding != null) {
            holding.destroyForcibly();
        }
        for (Path mountPoint : List.of(holder, survivor)) {
            Launcher.cleanUp(base, environment(), mountPoint);
        }
    }

    private Shell.Result strata(String... args) {
        return Launcher.run(base, environment(), args);
    }

    private Map<String, String> environment() {
        return Map.of("STRATA_STATE_DIR", base.resolve("state").toString());
    }

    /** Regular files anywhere in the source directory, by relative path. */
    private List<String> sourceFiles() throws IOException {
        return FileTrees.regularFiles(source).stream()
                .map(f -> source.relativize(f.path()).toString()).sorted().toList();
    }

    @Test
    void unlinkedOpenFileStaysReadableOutsideTheUsersDirectoryUntilTheLastClose() throws Exception {
        Files.writeString(holder.resolve("open.txt"), "still here");
        Shell.Result result = Shell.sh(base, "exec 3<" + holder.resolve("open.txt") + "; rm " + holder.resolve("open.txt")
                + "; cat <&3; echo; ls -a " + source + "; exec 3<&-");
        result.assertOk();

        assertThat(result.out()).startsWith("still here");
        assertThat(result.out()).as("the user's directory in the source").doesNotContain("open.txt", ".fuse_hidden");
        Poll.until("data removed after the last close", List.of(), Duration.ofSeconds(5), this::sourceFiles);
    }

    @Test
    void whatADeadClientKeptIsRemovedByAnotherAfterItsSessionExpires() throws Exception {
        Files.writeString(holder.resolve("orphan.txt"), "kept by a client that dies");
        holding = new ProcessBuilder("sleep", "600").redirectInput(holder.resolve("orphan.txt").toFile()).start();
        Files.delete(holder.resolve("orphan.txt"));
        Poll.until("the kept data under the session directory", 1, Duration.ofSeconds(5),
                () -> (int) sourceFiles().stream().filter(f -> f.startsWith(".strata/sessions/")).count());

        ProcessHandle daemon = holderDaemon();
        daemon.destroyForcibly(); // kill -9: no unmount, no session close
        daemon.onExit().join();
        holding.destroyForcibly().waitFor();

        Poll.until("the dead client's kept data and session removed", List.of(), EXPIRE.multipliedBy(5),
                this::sourceFiles);
        assertThat(MountedVolume.names(survivor)).doesNotContain("orphan.txt");
        try (Stream<Path> sessions = Files.list(source.resolve(".strata/sessions"))) {
            assertThat(sessions.count()).as("session directories left: only the survivor's").isLessThanOrEqualTo(1);
        }
    }

    private ProcessHandle holderDaemon() {
        return Launcher.daemons(holder).stream().findFirst()
                .orElseThrow(() -> new AssertionError("no daemon serves " + holder));
    }
}
