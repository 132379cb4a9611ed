package io.strata.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line is built with only the subcommand the arguments name, and with all of them otherwise. */
class StrataCommandTest {
    private static final Set<String> ALL = StrataCommand.commandLine(Map.of()).getSubcommands().keySet();

    private static Set<String> subcommandsFor(String... args) {
        return StrataCommand.commandLine(Map.of(), args).getSubcommands().keySet();
    }

    @Test
    void aNamedSubcommandIsTheOnlyOneBuilt() {
        assertEquals(Set.of("mount"), subcommandsFor("mount", "s3://b", "/mnt"));
    }

    @Test
    void anAliasNamesItsSubcommand() {
        assertEquals(Set.of("umount", "unmount"), subcommandsFor("unmount", "/mnt"));
    }

    @Test
    void helpOptionsMisspellingsAndNoArgumentsGetEverySubcommand() {
        assertTrue(ALL.containsAll(Set.of("mount", "umount", "dump", "load", "help", "format")), ALL.toString());
        assertEquals(ALL, subcommandsFor());
        assertEquals(ALL, subcommandsFor("--help"));
        assertEquals(ALL, subcommandsFor("help", "mount"));
        assertEquals(ALL, subcommandsFor("mnt"));
    }

    @Test
    void everySubcommandAnswersHelpWithItsUsage() {
        StrataCommand.commandLine(Map.of()).getSubcommands().forEach((name, command) -> {
            if (name.equals("help")) {
                return; // picocli's own: "strata help CMD"
            }
            Cli.Result result = Cli.run(name, "--help");
            assertEquals(ExitCodes.OK, result.exitCode(), result.toString());
            assertTrue(result.out().startsWith("Usage: strata " + command.getCommandName() + " "), result.toString());
        });
    }

    @Test
    void theNamesThatFindASubcommandAreTheNamesItsCommandLineAnswersTo() {
        StrataCommand.subcommands().forEach((name, subcommand) -> {
            CommandLine line = subcommand.commandLine().apply(null);
            List<String> declared = new ArrayList<>(List.of(line.getCommandSpec().name()));
            declared.addAll(List.of(line.getCommandSpec().aliases()));
            assertEquals(declared, subcommand.names(), name);
        });
    }

    @Test
    void theRootAnswersVersionAndHelpAsPicocliStandardOptionsWould() {
        Cli.Result version = Cli.run("--version");
        assertEquals(ExitCodes.OK, version.exitCode(), version.toString());
        assertTrue(version.out().startsWith("strata "), version.toString());
        Cli.Result help = Cli.run("-h");
        assertTrue(help.out().startsWith("Usage: strata [-hV] [COMMAND]"), help.toString());
    }

    @Test
    void mountsOptionsAreParsedIntoItsCommandWithTheirDefaultsWhenAbsent() {
        MountCommand bare = Cli.parse(Map.of(), "mount", "src", "mnt");
        assertEquals("src", bare.source);
        assertEquals(Path.of("mnt"), bare.mountPoint);
        assertFalse(bare.foreground);
        assertEquals(List.of(), bare.config.dashO);
        assertNull(bare.config.conf);

        MountCommand full = Cli.parse(Map.of(), "mount", "-f", "--conf", "c.properties", "-o", "a=1,b", "-o", "c",
                "src", "mnt");
        assertTrue(full.foreground);
        assertEquals(List.of("a=1,b", "c"), full.config.dashO);
        assertEquals(Path.of("c.properties"), full.config.conf);
    }

    @Test
    void aMisspeltSubcommandStillGetsPicoclisSuggestion() {
        Cli.Result result = Cli.run("mout", "s3://b", "/mnt");
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result.toString());
        assertTrue(result.err().contains("mount"), result.toString());
    }
}
