package io.strata.cli;

import io.strata.client.VolumeOptions;
import io.strata.core.conf.DataSize;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.fuse.FuseOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every way {@code strata mount} refuses bad input before it starts anything. No test here gets
 * as far as mounting: real mounts are the integration tests' business.
 */
class MountCommandTest {
    @TempDir
    Path dir;
    Path source;
    Path mountPoint;

    @BeforeEach
    void createDirectories() throws Exception {
        source = Files.createDirectory(dir.resolve("data"));
        mountPoint = Files.createDirectory(dir.resolve("mnt"));
    }

    private Cli.Result mount(String... extra) {
        return mount(Map.of(), extra);
    }

    private Cli.Result mount(Map<String, String> env, String... extra) {
        String[] args = new String[extra.length + 1];
        args[0] = "mount";
        System.arraycopy(extra, 0, args, 1, extra.length);
        return Cli.run(env, args);
    }

    private static void assertBadInput(Cli.Result result, String... fragments) {
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("", result.out(), result::toString);
        assertTrue(result.err().startsWith("strata: "), result::toString);
        assertEquals(1, result.err().lines().count(), () -> "one line expected: " + result);
        for (String fragment : fragments) {
            assertTrue(result.err().contains(fragment), () -> "missing '" + fragment + "' in " + result);
        }
    }

    @Test
    void unknownOptionNamesTheClosestKey() {
        assertBadInput(mount(source.toString(), mountPoint.toString(), "-o", "atr_timeout=2"),
                "unknown option 'atr_timeout'; did you mean 'attr_timeout'?");
    }

    @Test
    void unknownOptionInACommaListIsFound() {
        assertBadInput(mount(source.toString(), mountPoint.toString(), "-o", "kernel_cache,entry_timout=3"),
                "unknown option 'entry_timout'; did you mean 'entry_timeout'?");
    }

    @Test
    void badValueNamesKeyValueAndForm() {
        assertBadInput(mount(source.toString(), mountPoint.toString(), "-o", "attr_timeout=abc"),
                "bad value for option attr_timeout", "'abc'", "expected a duration such as 1.5 (seconds)");
    }

    @Test
    void valueFailingItsCheckSaysWhatIsExpected() {
        assertBadInput(mount(source.toString(), mountPoint.toString(), "-o", "max_read=1KiB"),
                "max_read", "'1KiB'", "at least 4KiB");
    }

    @Test
    void badValueInTheEnvironmentNamesTheVariable() {
        assertBadInput(mount(Map.of("STRATA_ENTRY_TIMEOUT", "soon"), source.toString(), mountPoint.toString()),
                "environment variable STRATA_ENTRY_TIMEOUT", "entry_timeout", "'soon'");
    }

    @Test
    void badKeyInTheConfFileNamesTheFile() throws Exception {
        Path conf = Files.writeString(dir.resolve("strata.properties"), "kernel_cach=true\n");
        assertBadInput(mount(source.toString(), mountPoint.toString(), "--conf", conf.toString()),
                "in " + conf, "unknown option 'kernel_cach'; did you mean 'kernel_cache'?");
    }

    @Test
    void missingConfFile() {
        Path conf = dir.resolve("nope.properties");
        assertBadInput(mount(source.toString(), mountPoint.toString(), "--conf", conf.toString()),
                "configuration file " + conf + " not found");
    }

    @Test
    void missingSource() {
        Path missing = dir.resolve("nope");
        assertBadInput(mount(missing.toString(), mountPoint.toString()),
                "source " + missing + " does not exist; give an existing directory to mount");
    }

    @Test
    void missingSourceGivenAsFileUri() {
        Path missing = dir.resolve("nope");
        assertBadInput(mount(missing.toUri().toString(), mountPoint.toString()), "source " + missing + " does not exist");
    }

    @Test
    void sourceThatIsAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertBadInput(mount(file.toString(), mountPoint.toString()), "source " + file + " is not a directory");
    }

    @Test
    void s3SourcesAreCheckedForTheirForm() {
        assertBadInput(mount("s3://bucket/a//b", mountPoint.toString()), "bad S3 URI 's3://bucket/a//b'");
        assertBadInput(mount("s3://x", mountPoint.toString()), "'x' is not a bucket name");
        assertBadInput(mount("s3a://bucket/p", mountPoint.toString()), "write the bucket as s3://bucket/prefix");
        Cli.Result result = mount("s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/p", mountPoint.toString());
        assertBadInput(result, "s3a.accessKeyId");
        assertFalse(result.err().contains("wJalrXUtnFEMI"), result::toString);
    }

    @Test
    void anS3SourceIsNormalizedAndHasNoLocalDirectory() {
        MountCommand.Source source = MountCommand.resolveSource("s3://bucket/prefix/");
        assertEquals(java.net.URI.create("s3://bucket/prefix"), source.uri());
        assertEquals("s3://bucket/prefix", source.shown());
        assertEquals(null, source.localDir());
    }

    @Test
    void otherSchemesAndBadFileUris() {
        assertBadInput(mount("hdfs://nn/x", mountPoint.toString()), "unsupported source 'hdfs://nn/x'");
        assertBadInput(mount("file://host/x", mountPoint.toString()), "bad source URI 'file://host/x'");
    }

    @Test
    void missingMountPoint() {
        Path missing = dir.resolve("nope");
        assertBadInput(mount(source.toString(), missing.toString()),
                "mountpoint " + missing + " does not exist; create it with 'mkdir -p " + missing + "'");
    }

    @Test
    void mountPointThatIsNotADirectory() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertBadInput(mount(source.toString(), file.toString()),
                "mountpoint " + file + " is not a directory; give an empty directory");
    }

    @Test
    void nonEmptyMountPoint() throws Exception {
        Files.writeString(mountPoint.resolve("left-over"), "x");
        assertBadInput(mount(source.toString(), mountPoint.toString()),
                "mountpoint " + mountPoint + " is not empty; mount on an empty directory");
    }

    @Test
    void mountPointInsideTheSource() throws Exception {
        Path inside = Files.createDirectory(source.resolve("mnt"));
        assertBadInput(mount(source.toString(), inside.toString()), "is inside the source " + source);
        assertBadInput(mount(source.toString(), source.toString()), "is not empty");
    }

    @Test
    void mountPointThatIsAlreadyAMount() {
        assertBadInput(mount(source.toString(), "/proc"), "mountpoint /proc is already a proc mount point");
    }

    @Test
    void relativePathsAreResolvedAgainstTheWorkingDirectory() {
        Path cwd = Path.of("").toAbsolutePath();
        assertBadInput(mount("no-such-dir-here", mountPoint.toString()),
                "source " + cwd.resolve("no-such-dir-here") + " does not exist");
    }

    @Test
    void optionsFollowTheirPrecedence() throws Exception {
        Path conf = Files.writeString(dir.resolve("strata.properties"),
                "attr_timeout=3\nentry_timeout=3\nmax_read=64KiB\n");
        Map<String, String> env = Map.of("STRATA_ATTR_TIMEOUT", "4", "STRATA_ENTRY_TIMEOUT", "4", "PATH", "/bin");
        MountCommand command = Cli.parse(env, "mount", "src", "mnt", "--conf", conf.toString(),
                "-o", "attr_timeout=5", "-o", "ro");
        Options options = command.bindOptions(OptionRegistry.load(), env);
        assertEquals(Duration.ofSeconds(5), options.get(FuseOptions.ATTR_TIMEOUT));
        assertEquals(Duration.ofSeconds(4), options.get(FuseOptions.ENTRY_TIMEOUT));
        assertEquals(DataSize.ofKiB(64), options.get(FuseOptions.MAX_READ));
        assertTrue(options.get(VolumeOptions.READ_ONLY));
        assertFalse(options.isSet(FuseOptions.MAX_WRITE));
    }

    @Test
    void theConfFileUnderStrataHomeIsTheDefault() throws Exception {
        Path home = dir.resolve("home");
        Files.createDirectories(home.resolve("conf"));
        Files.writeString(home.resolve("conf/strata.properties"), "kernel_cache=true\nattr_timeout=9\n");
        Map<String, String> env = Map.of("STRATA_HOME", home.toString());

        MountCommand byDefault = Cli.parse(env, "mount", "src", "mnt");
        Options options = byDefault.bindOptions(OptionRegistry.load(), env);
        assertTrue(options.get(FuseOptions.KERNEL_CACHE));
        assertEquals(Duration.ofSeconds(9), options.get(FuseOptions.ATTR_TIMEOUT));

        Path other = Files.writeString(dir.resolve("other.properties"), "attr_timeout=2\n");
        MountCommand withConf = Cli.parse(env, "mount", "src", "mnt", "--conf", other.toString());
        Options chosen = withConf.bindOptions(OptionRegistry.load(), env);
        assertFalse(chosen.isSet(FuseOptions.KERNEL_CACHE), "--conf replaces the default file");
        assertEquals(Duration.ofSeconds(2), chosen.get(FuseOptions.ATTR_TIMEOUT));
    }

    @Test
    void aDaemonTakesItsParentsOptionsAlone() throws Exception {
        Path home = dir.resolve("home");
        Files.createDirectories(home.resolve("conf"));
        Files.writeString(home.resolve("conf/strata.properties"), "kernel_cache=true\n");
        Map<String, String> env = Map.of(
                "STRATA_HOME", home.toString(),
                "STRATA_ATTR_TIMEOUT", "4",
                Daemon.OPTIONS_ENV, Daemon.encode(Map.of("entry_timeout", "7s", "state_dir", "/tmp/x y")));

        MountCommand daemon = Cli.parse(env, "mount", "--foreground", "src", "mnt");
        Options options = daemon.bindOptions(OptionRegistry.load(), env);
        assertEquals(Duration.ofSeconds(7), options.get(FuseOptions.ENTRY_TIMEOUT));
        assertEquals("/tmp/x y", options.get(VolumeOptions.STATE_DIR));
        assertFalse(options.isSet(FuseOptions.KERNEL_CACHE), "the parent already read the files it meant to");
        assertFalse(options.isSet(FuseOptions.ATTR_TIMEOUT), "the parent already read the environment");

        MountCommand parent = Cli.parse(env, "mount", "src", "mnt");
        Options parentOptions = parent.bindOptions(OptionRegistry.load(), env);
        assertTrue(parentOptions.get(FuseOptions.KERNEL_CACHE));
        assertFalse(parentOptions.isSet(FuseOptions.ENTRY_TIMEOUT), "only a --foreground daemon reads them");
    }

    @Test
    void aDaemonRejectsCorruptParentOptions() {
        Map<String, String> env = Map.of(Daemon.OPTIONS_ENV, "atr_timeout=1\n");
        MountCommand daemon = Cli.parse(env, "mount", "--foreground", "src", "mnt");
        OptionException e = assertThrows(OptionException.class, () -> daemon.bindOptions(OptionRegistry.load(), env));
        assertTrue(e.getMessage().startsWith("in " + Daemon.OPTIONS_ENV + ": unknown option 'atr_timeout'"));
    }

    @Test
    void missingArgumentsAreAUsageError() {
        Cli.Result result = Cli.run("mount", source.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertTrue(result.err().contains("MOUNTPOINT"), result::toString);
    }

    @Test
    void mountedLineNamesEverything() {
        assertEquals("mounted /data at /mnt/data (metastore sqlite:///s/meta.db, log /s/logs/mnt-data.log, pid 42)",
                MountCommand.mountedLine(Path.of("/data"), Path.of("/mnt/data"), "sqlite:///s/meta.db",
                        "/s/logs/mnt-data.log", 42));
        assertEquals("mounted /data at /mnt/data (metastore memory://, pid 42)",
                MountCommand.mountedLine(Path.of("/data"), Path.of("/mnt/data"), "memory://", null, 42));
    }
}
