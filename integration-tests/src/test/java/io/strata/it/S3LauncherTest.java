package io.strata.it;

import io.strata.core.ufs.s3.S3TestServer;
import io.strata.fuse.MountPoints;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/strata mount s3://bucket/prefix MOUNTPOINT} as a user runs it: the daemon mounts the
 * bucket, and the secret key handed to it (here through STRATA_S3A_SECRETKEY) shows in no
 * command line, log or {@code strata conf} output.
 */
class S3LauncherTest {

    @TempDir
    Path base;
    private Path mountPoint;
    private Path stateDir;
    private S3TestServer server;
    private URI volume;

    @BeforeEach
    void setUp(TestInfo test) throws IOException {
        mountPoint = Files.createDirectories(base.resolve("mnt"));
        stateDir = Files.createDirectories(base.resolve("state"));
        server = S3TestServer.shared();
        volume = URI.create(server.newVolume(test.getTestMethod().orElseThrow().getName()) + "/prefix");
    }

    @AfterEach
    void cleanUp() {
        Launcher.cleanUp(base, environment(), mountPoint);
    }

    @Test
    void mountsABucketPrefixAndKeepsTheSecretOutOfSight() throws IOException {
        server.put(volume, "hello.txt", "from the bucket\n".getBytes());

        Shell.Result mount = strata("mount", volume.toString(), mountPoint.toString(), "-o", endpointOptions());
        assertEquals(0, mount.exit(), mount.describe());
        assertTrue(mount.out().startsWith("mounted " + volume + " at " + mountPoint), mount.describe());
        assertEquals("from the bucket\n", Files.readString(mountPoint.resolve("hello.txt")));
        Files.writeString(mountPoint.resolve("back.txt"), "through the daemon\n");
        assertArrayEquals("through the daemon\n".getBytes(), server.get(volume, "back.txt").orElseThrow());

        if (server.isLocalProxy()) {
            String secret = S3TestServer.secretKey();
            List<ProcessHandle> daemons = daemons();
            assertEquals(1, daemons.size(), "daemons: " + daemons);
            String cmdline = Files.readString(Path.of("/proc/" + daemons.get(0).pid() + "/cmdline"));
            assertFalse(cmdline.contains(secret), "secret in the daemon's command line");
            assertFalse(mount.out().contains(secret) || mount.err().contains(secret), mount.describe());
            assertFalse(allLogs().contains(secret), "secret in a log file");
            Shell.Result conf = strata("conf");
            assertFalse(conf.out().contains(secret), "secret in strata conf");
        }

        Shell.Result umount = strata("umount", mountPoint.toString());
        assertEquals(0, umount.exit(), umount.describe());
        assertFalse(MountPoints.isMounted(mountPoint));
    }

    @Test
    void aMissingBucketFailsTheMountWithOneLine() {
        URI missing = URI.create("s3://strata-missing-" + Long.toHexString(System.nanoTime()) + "/x");
        Shell.Result mount = strata("mount", missing.toString(), mountPoint.toString(), "-o", endpointOptions());
        assertNotEquals(0, mount.exit(), mount.describe());
        List<String> lines = mount.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), mount.describe());
        assertTrue(lines.get(0).contains("does not exist"), mount.describe());
        assertFalse(MountPoints.isMounted(mountPoint));
        assertEquals(List.of(), daemons());
    }

    /** Endpoint, region and path style as -o; the key pair travels in the environment. */
    private String endpointOptions() {
        return server.optionText().entrySet().stream()
                .filter(e -> !e.getKey().startsWith("s3a."))
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }

    private Shell.Result strata(String... args) {
        return Launcher.run(base, environment(), args);
    }

    /** The state directory, and the key pair the way a user hands it over: in the environment. */
    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("STRATA_STATE_DIR", stateDir.toString());
        server.optionText().forEach((key, value) -> {
            if (key.startsWith("s3a.")) {
                env.put(io.strata.core.conf.OptionsLoader.envName(key), value);
            }
        });
        return env;
    }

    private String allLogs() throws IOException {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(stateDir)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".log")).toList()) {
                text.append(Files.readString(file));
            }
        }
        return text.toString();
    }

    private List<ProcessHandle> daemons() {
        return Launcher.daemons(mountPoint);
    }
}
