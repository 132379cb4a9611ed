package io.strata.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DaemonTest {
    @Test
    void optionsSurviveTheEnvironmentVariable() {
        Map<String, String> options = Map.of(
                "meta", "sqlite:///var/lib/strata/a b/meta.db",
                "secret_key", "a=b:c\\d#e!f\n",
                "ro", "true",
                "umask", "022");
        String text = Daemon.encode(options);
        assertFalse(text.startsWith("#"), "no date comment");
        assertEquals(options, Daemon.decode(text));
        assertEquals(Map.of(), Daemon.decode(Daemon.encode(Map.of())));
    }

    @Test
    void optionsNeverGoOnTheCommandLine() {
        List<String> command = Daemon.command(Path.of("/data"), Path.of("/mnt/data"));
        assertEquals(List.of(Main.class.getName(), "mount", "--foreground", "/data", "/mnt/data"),
                command.subList(command.size() - 5, command.size()));
        int cp = command.indexOf("-cp");
        assertTrue(cp > 0, command::toString);
        for (String entry : command.get(cp + 1).split(":")) {
            assertTrue(entry.startsWith("/"), "absolute class path: " + entry);
        }
        assertTrue(command.stream().noneMatch(arg -> arg.equals("-o")), command::toString);
        Map<String, String> env = Daemon.environment(Map.of("attr_timeout", "2s"), Path.of("/s/logs/x.log"));
        assertEquals(Map.of("attr_timeout", "2s"), Daemon.decode(env.get(Daemon.OPTIONS_ENV)));
        assertEquals("/s/logs/x.log", env.get(Daemon.LOG_ENV));
    }

    @Test
    void aDaemonOfAProgramStartedFromItsJarIsStartedFromTheJarToo() {
        // -jar applies the manifest's Add-Opens, which the kernel transport's spliced reads need
        assertEquals(List.of("-jar", "/opt/strata/cli/target/strata.jar"),
                Daemon.program("/opt/strata/cli/target/strata.jar", "/opt/strata/cli/target/strata.jar mount /d /m"));
        assertEquals(List.of("-jar", Path.of("cli/target/strata.jar").toAbsolutePath().toString()),
                Daemon.program("cli/target/strata.jar", "cli/target/strata.jar mount /d /m"));
    }

    @Test
    void aDaemonOfAProgramStartedFromAClassPathGetsThatClassPathAndTheMainClass() {
        assertEquals(List.of("-cp", "/opt/a.jar:/opt/classes", Main.class.getName()),
                Daemon.program("/opt/a.jar:/opt/classes", Main.class.getName() + " mount /d /m"));
        // one jar on a class path, the main class named: still -cp, as this JVM was started
        assertEquals(List.of("-cp", "/opt/strata.jar", Main.class.getName()),
                Daemon.program("/opt/strata.jar", Main.class.getName() + " mount /d /m"));
        assertEquals(List.of("-cp", "/opt/strata.jar", Main.class.getName()),
                Daemon.program("/opt/strata.jar", ""));
    }

    @Test
    void namesComeFromTheMountPoint() {
        assertEquals("mnt-data", Daemon.name(Path.of("/mnt/data")));
        assertEquals("mnt-my_data", Daemon.name(Path.of("/mnt/my data")));
        assertEquals("root", Daemon.name(Path.of("/")));
        assertEquals(Path.of("/s/logs/mnt-data.log"), Daemon.logFile(Path.of("/s"), Path.of("/mnt/data/")));
        assertEquals(Path.of("/s/run/mnt-data.pid"), Daemon.pidFile(Path.of("/s"), Path.of("/mnt/./data")));
    }

    @Test
    void theErrorLineIsTheDaemonsOwnReport() {
        assertEquals(Optional.of("cannot open /dev/fuse; run as root"), Daemon.errorLine(List.of(
                "2024-01-01 10:00:00.000 INFO  [main] x - starting",
                "strata: mount failed: cannot open /dev/fuse; run as root",
                "")));
        assertEquals(Optional.of("mountpoint /m is not empty; mount on an empty directory"),
                Daemon.errorLine(List.of("strata: mountpoint /m is not empty; mount on an empty directory")));
        assertEquals(Optional.of("Caused by: java.lang.UnsatisfiedLinkError: libfuse.so.2"), Daemon.errorLine(List.of(
                "Exception in thread \"main\" java.lang.RuntimeException: boom",
                "\tat a.b.C.d(C.java:1)",
                "Caused by: java.lang.UnsatisfiedLinkError: libfuse.so.2",
                "\tat a.b.C.e(C.java:2)",
                "\t... 3 more")));
        assertEquals(Optional.empty(), Daemon.errorLine(List.of("", "  ")));
    }

    @Test
    void theMountedLineIsFoundAmongLogLines() {
        assertEquals(Optional.of("mounted /a at /b (metastore memory://, log /l, pid 1)"), Daemon.mountedLine(List.of(
                "10:00 INFO x - mounted file:///a/ at /b (fuse options ...)",
                "mounted /a at /b (metastore memory://, log /l, pid 1)")));
        assertEquals(Optional.empty(), Daemon.mountedLine(List.of("strata: mount failed: x")));
    }

    @Test
    void onlyThisRunsPartOfTheLogIsRead(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("x.log"), "strata: mount failed: old\n");
        long offset = Files.size(log);
        assertEquals(List.of(), Daemon.readFrom(log, offset));
        Files.writeString(log, "strata: mount failed: new\n", java.nio.file.StandardOpenOption.APPEND);
        assertEquals(Optional.of("new"), Daemon.errorLine(Daemon.readFrom(log, offset)));
        assertEquals(List.of(), Daemon.readFrom(dir.resolve("missing.log"), 0));
    }

    @Test
    void pidFilesNameThisProcessAndAreRemovedOnlyByIt(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("run/x.pid");
        Daemon.writePidFile(pidFile);
        assertEquals(Optional.of(ProcessHandle.current().pid()), Daemon.readPid(pidFile));
        Daemon.removePidFile(pidFile);
        assertFalse(Files.exists(pidFile));

        Files.writeString(pidFile, "1\n");
        Daemon.removePidFile(pidFile);
        assertTrue(Files.exists(pidFile), "another process's pid file stays");
    }

    private static Process shell(Path log, String script) throws Exception {
        return new ProcessBuilder("sh", "-c", script)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true)
                .start();
    }

    @Test
    void theDaemonIsStartedDetachedAndNotAsAChildOfTheMountingProcess(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("d.log");
        Daemon.Started daemon = Daemon.start(List.of("sh", "-c", "echo \"options: $" + Daemon.OPTIONS_ENV
                + "\"; exec sleep 60"), Map.of("ro", "true"), log);
        try {
            assertTrue(daemon.isAlive(), "the daemon runs");
            // a live child would keep this JVM 0.3 s at its exit
            assertNotEquals(Optional.of(ProcessHandle.current().pid()),
                    daemon.handle().orElseThrow().parent().map(ProcessHandle::pid), "the daemon is this JVM's child");
            // the shell echoes, then becomes the sleep: wait for both
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!(Files.exists(log) && Files.readString(log).contains("ro=true") && runsSleep(daemon))
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.readString(log).contains("ro=true"), "its output, with its options, is in its log");
            assertEquals(Optional.of(daemon.pid()), daemon.handle().map(ProcessHandle::pid));
            assertTrue(runsSleep(daemon), "the pid is the daemon's own");
        } finally {
            daemon.stop();
        }
        assertTrue(daemon.handle().orElseThrow().onExit().get(10, TimeUnit.SECONDS) != null);
        assertFalse(daemon.isAlive(), "stopped");
    }

    @Test
    void aDaemonThatFailsReportsItsErrorLine(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("d.log"), "strata: mount failed: an older run\n");
        long offset = Files.size(log);
        Process daemon = shell(log, "echo '10:00 INFO x - starting'; echo 'strata: mount failed: boom; fix it'; exit 1");
        Daemon.Outcome outcome = Daemon.awaitMount(Daemon.Started.of(daemon.toHandle()), dir.resolve("mnt"), log,
                offset, Duration.ofSeconds(20));
        assertFalse(outcome.mounted());
        assertEquals("boom; fix it", outcome.line());
    }

    @Test
    void aDaemonThatDiesSilentlyIsReportedWithItsLog(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("d.log");
        Files.createFile(log);
        Daemon.Outcome outcome = Daemon.awaitMount(Daemon.Started.of(shell(log, "exit 3").toHandle()),
                dir.resolve("mnt"), log, 0, Duration.ofSeconds(20));
        assertFalse(outcome.mounted());
        assertEquals("the daemon exited; see " + log, outcome.line());
    }

    @Test
    void aDaemonThatNeverMountsIsStoppedAtTheTimeout(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("d.log");
        Files.createFile(log);
        Process daemon = shell(log, "exec sleep 60");
        Daemon.Outcome outcome = Daemon.awaitMount(Daemon.Started.of(daemon.toHandle()), dir.resolve("mnt"), log, 0,
                Duration.ofMillis(300));
        assertFalse(outcome.mounted());
        assertTrue(outcome.line().startsWith("the mount did not appear within 300ms, so the daemon was stopped"),
                outcome.line());
        assertTrue(daemon.waitFor(10, TimeUnit.SECONDS), "the daemon was stopped");
    }

    private static boolean runsSleep(Daemon.Started daemon) {
        return daemon.handle().flatMap(process -> process.info().command()).orElse("").endsWith("sleep");
    }

    @Test
    void noDaemonServesAPlainDirectory(@TempDir Path dir) {
        assertEquals(Optional.empty(), Daemon.find(dir.resolve("state"), dir.resolve("mnt")));
    }
}
