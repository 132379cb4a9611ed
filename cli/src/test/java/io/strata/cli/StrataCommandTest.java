package io.strata.cli;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void aMisspeltSubcommandStillGetsPicoclisSuggestion() {
        Cli.Result result = Cli.run("mout", "s3://b", "/mnt");
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result.toString());
        assertTrue(result.err().contains("mount"), result.toString());
    }
}
