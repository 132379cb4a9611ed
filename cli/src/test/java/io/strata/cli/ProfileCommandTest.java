package io.strata.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ProfileCommandTest {
    @TempDir
    Path dir;

    @Test
    void aSavedAccessLogIsReplayedIntoOneTable() throws IOException {
        Path log = Files.writeString(dir.resolve("access.log"), """
                2026.11.25 15:30:01.000001 [uid:0,gid:0,pid:1] lookup (1,"a"): OK <0.001000>
                #
                2026.11.25 15:30:01.000002 [uid:0,gid:0,pid:1] lookup (1,"b"): OK <0.003000>
                2026.11.25 15:30:01.000003 [uid:0,gid:0,pid:7] getattr (2): OK <0.000500>
                """);
        Cli.Result result = Cli.run("profile", log.toString());
        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.out()).containsPattern("(?m)^lookup\\s+2\\s+0\\s+0\\.004\\s+2\\.000$");
        assertThat(result.out()).contains("3 operations");
    }

    @Test
    void filtersByProcess() throws IOException {
        Path log = Files.writeString(dir.resolve("access.log"), """
                2026.11.25 15:30:01.000001 [uid:0,gid:0,pid:1] lookup (1,"a"): OK <0.001000>
                2026.11.25 15:30:01.000003 [uid:0,gid:0,pid:7] getattr (2): OK <0.000500>
                """);
        Cli.Result result = Cli.run("profile", log.toString(), "--pid", "7");
        assertThat(result.out()).contains("getattr").doesNotContain("lookup").contains("1 operations");
    }

    @Test
    void aMissingSourceIsOneClearError() {
        Cli.Result result = Cli.run("profile", dir.resolve("nope").toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).isEqualTo("strata: " + dir.resolve("nope")
                + " does not exist; give a saved access log or a Strata mountpoint\n");
    }

    @Test
    void statsOnADirectoryThatIsNoMountSaysSo() {
        Cli.Result result = Cli.run("stats", dir.toString(), "--count", "1");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).isEqualTo("strata: " + dir + " has no .stats: give the root of a Strata mount\n");
    }
}
