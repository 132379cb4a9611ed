package io.strata.cli;

import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.XattrMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code strata dump} and {@code strata load} run in-process: files, gzip, stdio, bad input, exit codes. */
class DumpLoadCommandTest {
    @TempDir
    Path dir;
    private String source;

    @BeforeEach
    void makeVolume() throws IOException {
        source = sqlite("source");
        try (MetaStore store = MetaStores.open(source)) {
            long docs = store.create(Inode.ROOT, "docs", NewInode.directory(0755, 1000, 100, 1)).ino();
            long file = store.create(docs, "a \"b\"\n", NewInode.file(0644, 1000, 100, 2)).ino();
            store.link(file, Inode.ROOT, "hard", 3);
            store.setXattr(file, "user.k", new byte[] {0, 1, 2}, XattrMode.CREATE);
            store.putSetting("ufs_uri", "file:///data");
        }
    }

    @Test
    void dumpThenLoadThenDumpAgainGivesTheSameFile() throws IOException {
        Path first = dir.resolve("first.json");
        Cli.Result dumped = Cli.run("dump", source, first.toString());
        assertEquals(ExitCodes.OK, dumped.exitCode(), dumped::toString);
        assertTrue(dumped.out().startsWith("dumped 3 entries of " + source + " to " + first + " in "), dumped::toString);
        assertTrue(dumped.err().contains("dump: 3 entries in "), "progress lines on stderr: " + dumped.err());
        assertFalse(Files.list(dir).anyMatch(path -> path.toString().endsWith(".partial")));

        String target = sqlite("target");
        Cli.Result loaded = Cli.run("load", target, first.toString());
        assertEquals(ExitCodes.OK, loaded.exitCode(), loaded::toString);
        assertTrue(loaded.out().startsWith("loaded 3 entries (3 inodes) into " + target + " in "), loaded::toString);

        Path second = dir.resolve("second.json");
        assertEquals(ExitCodes.OK, Cli.run("dump", target, second.toString()).exitCode());
        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second));
    }

    @Test
    void gzipByFileName() throws IOException {
        Path plain = dir.resolve("plain.json");
        Path gz = dir.resolve("dump.json.gz");
        assertEquals(ExitCodes.OK, Cli.run("dump", source, plain.toString()).exitCode());
        Cli.Result dumped = Cli.run("dump", source, gz.toString());
        assertEquals(ExitCodes.OK, dumped.exitCode(), dumped::toString);
        try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            assertArrayEquals(Files.readAllBytes(plain), in.readAllBytes());
        }
        Cli.Result loaded = Cli.run("load", sqlite("target"), gz.toString());
        assertEquals(ExitCodes.OK, loaded.exitCode(), loaded::toString);
    }

    @Test
    void binaryByFileNameOrFlagLoadsAndDumpsAsTheSameJson() throws IOException {
        Path json = dir.resolve("dump.json");
        assertEquals(ExitCodes.OK, Cli.run("dump", source, json.toString()).exitCode());
        Path binary = dir.resolve("dump.sdump");
        Path binaryGz = dir.resolve("dump.sdump.gz");
        Path flagged = dir.resolve("flagged.bin");
        assertEquals(ExitCodes.OK, Cli.run("dump", source, binary.toString()).exitCode());
        assertEquals(ExitCodes.OK, Cli.run("dump", source, binaryGz.toString()).exitCode());
        assertEquals(ExitCodes.OK, Cli.run("dump", "--format", "binary", source, flagged.toString()).exitCode());
        byte[] bytes = Files.readAllBytes(binary);
        assertArrayEquals(new byte[] {':', ')', '\n'}, java.util.Arrays.copyOf(bytes, 3), "Smile's header");
        assertArrayEquals(bytes, Files.readAllBytes(flagged));
        try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(binaryGz))) {
            assertArrayEquals(bytes, in.readAllBytes());
        }
        for (Path dump : new Path[] {binary, binaryGz, flagged}) {
            String target = sqlite("from-" + dump.getFileName());
            Cli.Result loaded = Cli.run("load", target, dump.toString());
            assertEquals(ExitCodes.OK, loaded.exitCode(), loaded::toString);
            Path again = dir.resolve("again-" + dump.getFileName() + ".json");
            assertEquals(ExitCodes.OK, Cli.run("dump", target, again.toString()).exitCode());
            assertArrayEquals(Files.readAllBytes(json), Files.readAllBytes(again));
        }
        Cli.Result jsonFlag = Cli.run("dump", "--format", "json", source, dir.resolve("j.sdump").toString());
        assertEquals(ExitCodes.OK, jsonFlag.exitCode(), jsonFlag::toString);
        assertArrayEquals(Files.readAllBytes(json), Files.readAllBytes(dir.resolve("j.sdump")));
    }

    @Test
    void truncatedBinaryDumpIsOneLineOfBadInputWithItsOffset() throws IOException {
        Path binary = dir.resolve("dump.sdump");
        assertEquals(ExitCodes.OK, Cli.run("dump", source, binary.toString()).exitCode());
        byte[] bytes = Files.readAllBytes(binary);
        Files.write(binary, java.util.Arrays.copyOf(bytes, bytes.length - 10));
        Cli.Result result = Cli.run("load", sqlite("target"), binary.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        int end = bytes.length - 10;
        assertTrue(result.err().contains("cannot load " + binary + ": malformed dump at byte " + end
                + ": the dump ends at byte " + end + " before its trailer: truncated"), result::toString);
    }

    @Test
    void unknownFormatIsBadInput() {
        Cli.Result result = Cli.run("dump", "--format", "xml", source, dir.resolve("d.xml").toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("strata: --format must be json or binary, not \"xml\"\n", result.err());
        assertFalse(Files.exists(dir.resolve("d.xml")));
    }

    @Test
    void dashIsStdoutAndStdin() throws IOException {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        Result dumped = run(command -> ((DumpCommand) command).stdout = stdout, "dump", source, "-");
        assertEquals(ExitCodes.OK, dumped.exitCode, dumped.err);
        assertEquals("", dumped.out, "stdout holds the dump alone");
        assertTrue(dumped.err.contains("dumped 3 entries"), dumped.err);
        assertTrue(stdout.toString(StandardCharsets.UTF_8).startsWith("{\"format\":\"strata-dump\","));

        String target = sqlite("target");
        Result loaded = run(command -> ((LoadCommand) command).stdin = new ByteArrayInputStream(stdout.toByteArray()),
                "load", target, "-");
        assertEquals(ExitCodes.OK, loaded.exitCode, loaded.err);
        try (MetaStore store = MetaStores.open(target)) {
            assertEquals(3, store.stats().inodes());
        }
    }

    @Test
    void missingFileIsOneLineOfBadInput() {
        Cli.Result result = Cli.run("load", sqlite("target"), dir.resolve("nope.json").toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode());
        assertEquals("strata: " + dir.resolve("nope.json") + " does not exist; give a file written by 'strata dump'\n",
                result.err());
    }

    @Test
    void malformedDumpIsBadInputWithItsOffsetAndTheVolumeStaysEmpty() throws IOException {
        Path dump = dir.resolve("dump.json");
        assertEquals(ExitCodes.OK, Cli.run("dump", source, dump.toString()).exitCode());
        String text = Files.readString(dump);
        Files.writeString(dump, text.substring(0, text.length() / 2));
        String target = sqlite("target");
        Cli.Result result = Cli.run("load", target, dump.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertTrue(result.err().startsWith("strata: cannot load " + dump + ": malformed dump at byte "),
                result::toString);
        assertTrue(result.err().contains("truncated"), result::toString);
        assertTrue(result.err().endsWith("; " + target + " was left empty\n"), result::toString);
        assertEquals(1, result.err().lines().count(), result::toString);
        try (MetaStore store = MetaStores.open(target)) {
            assertEquals(1, store.stats().inodes());
        }
    }

    @Test
    void volumeThatIsNotEmptyIsRefusedUnlessForced() throws IOException {
        Path dump = dir.resolve("dump.json");
        assertEquals(ExitCodes.OK, Cli.run("dump", source, dump.toString()).exitCode());
        Cli.Result refused = Cli.run("load", source, dump.toString());
        assertEquals(ExitCodes.BAD_INPUT, refused.exitCode(), refused::toString);
        assertTrue(refused.err().startsWith("strata: " + source + " is not empty: it has 3 inodes; load into an empty"
                + " volume, or add --force"), refused::toString);
        Cli.Result forced = Cli.run("load", "--force", source, dump.toString());
        assertEquals(ExitCodes.OK, forced.exitCode(), forced::toString);
    }

    @Test
    void passwordsInUrlsAreNeverPrinted() {
        // nothing listens on port 1: the open fails, and says where without the password
        Cli.Result result = Cli.run("dump", "redis://:hunter2@127.0.0.1:1/0", dir.resolve("d.json").toString());
        assertEquals(ExitCodes.FAILURE, result.exitCode(), result::toString);
        assertTrue(result.err().startsWith("strata: cannot open redis://:***@127.0.0.1:1/0: "), result::toString);
        assertFalse(result.toString().contains("hunter2"), result::toString);
        assertFalse(Files.exists(dir.resolve("d.json")));

        Cli.Result bad = Cli.run("load", "ftp://user:hunter2@host/x", dir.resolve("d.json").toString());
        assertFalse(bad.toString().contains("hunter2"), bad::toString);
    }

    @Test
    void unsupportedUrlIsBadInput() {
        Cli.Result result = Cli.run("dump", "mysql://host/db", dir.resolve("d.json").toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertTrue(result.err().startsWith("strata: unsupported metastore URL 'mysql://host/db'"), result::toString);
    }

    @Test
    void barOnATerminal() {
        Result result = run(command -> ((DumpCommand) command).terminal = true, "dump", source,
                dir.resolve("d.json").toString());
        assertEquals(ExitCodes.OK, result.exitCode, result.err);
        assertTrue(result.err.startsWith("\rdump: 3 entries in "), result.err);
    }

    private String sqlite(String name) {
        return "sqlite://" + dir.resolve(name).resolve("meta.db");
    }

    private record Result(int exitCode, String out, String err) {}

    /** Runs a command after {@code setUp} changed its object (stdio, terminal). */
    private static Result run(java.util.function.Consumer<Object> setUp, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine line = StrataCommand.commandLine(Map.of())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err));
        setUp.accept(line.getSubcommands().get(args[0]).getCommand());
        int exitCode = line.execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }
}
