package io.strata.cli;

import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.OptionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfCommandTest {
    /** A registry with a secret, for the rule that secret values are never printed. */
    private static final OptionRegistry WITH_SECRET = new OptionRegistry(List.of(new OptionGroup() {
        @Override
        public String title() {
            return "Test | S3";
        }

        @Override
        public List<Option<?>> options() {
            return List.of(
                    Option.builder("secret_key", OptionType.STRING).defaultValue("hunter2").secret()
                            .doc("The secret access key.").build(),
                    Option.builder("region", OptionType.STRING).defaultValue("us-east-1").aliases("s3.region")
                            .doc("The | region.").build());
        }
    }));

    @Test
    void listsEveryOptionWithDefaultFormAndDoc() {
        Cli.Result result = Cli.run("conf");
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        assertEquals("", result.err());
        OptionRegistry registry = OptionRegistry.load();
        assertFalse(registry.all().isEmpty());
        for (OptionGroup group : registry.groups()) {
            assertTrue(result.out().contains("\n" + group.title() + "\n"), group.title());
        }
        for (Option<?> option : registry.all()) {
            String line = "  " + option.key() + " = " + OptionDocs.printDefault(option);
            assertTrue(result.out().contains(line), () -> "missing '" + line + "' in\n" + result.out());
            assertTrue(result.out().contains(option.type().form()), option.key());
            assertTrue(result.out().contains(OptionDocs.wrap(option.doc(), 90).get(0)), option.key());
        }
    }

    @Test
    void markdownHasARowPerOption() {
        Cli.Result result = Cli.run("conf", "--markdown");
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        assertTrue(result.out().startsWith("| Option | Default | Form | Description |\n|---|---|---|---|\n"));
        for (Option<?> option : OptionRegistry.load().all()) {
            assertTrue(result.out().contains("\n| `" + option.key() + "` "), option.key()); // then " |" or " (alias"...
        }
    }

    @Test
    void propertiesHaveEveryOptionCommentedOut() {
        Cli.Result result = Cli.run("conf", "--properties");
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        for (Option<?> option : OptionRegistry.load().all()) {
            assertTrue(result.out().contains("\n#" + option.key() + "="), option.key());
        }
        assertTrue(result.out().lines().allMatch(line -> line.isEmpty() || line.startsWith("#")),
                "nothing is set, everything is documentation");
    }

    @Test
    void formatsAreExclusive() {
        assertEquals(ExitCodes.BAD_INPUT, Cli.run("conf", "--markdown", "--properties").exitCode());
    }

    @Test
    void secretsAreListedButTheirValuesNeverShown() {
        String text = OptionDocs.text(WITH_SECRET);
        String markdown = OptionDocs.markdown(WITH_SECRET);
        String properties = OptionDocs.properties(WITH_SECRET);
        for (String rendered : List.of(text, markdown, properties)) {
            assertTrue(rendered.contains("secret_key"), rendered);
            assertFalse(rendered.contains("hunter2"), rendered);
            assertTrue(rendered.contains("us-east-1"), rendered);
        }
        assertTrue(text.contains("  secret_key = (secret)\n"), text);
        assertTrue(markdown.contains("| `secret_key` | (secret) | text | The secret access key. |\n"), markdown);
        assertTrue(properties.contains("\n#secret_key=\n"), properties);
    }

    @Test
    void markdownEscapesPipesAndNamesAliases() {
        String markdown = OptionDocs.markdown(WITH_SECRET);
        assertTrue(markdown.contains("| **Test \\| S3** | | | |\n"), markdown);
        assertTrue(markdown.contains("| `region` (alias `s3.region`) | `us-east-1` | text | The \\| region. |\n"),
                markdown);
    }

    @Test
    void writeReadmeReplacesOnlyTheBlockBetweenTheMarkers(@TempDir Path dir) throws Exception {
        Path readme = Files.writeString(dir.resolve("README.md"), "# Title\n\n## Options\n\n"
                + OptionDocs.README_BEGIN + "\nold table\n" + OptionDocs.README_END + "\n\nMore.\n");
        Cli.Result result = Cli.run("conf", "--write-readme", readme.toString());
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        String written = Files.readString(readme);
        assertTrue(written.startsWith("# Title\n\n## Options\n\n" + OptionDocs.README_BEGIN + "\n| Option |"), written);
        assertTrue(written.endsWith("|\n" + OptionDocs.README_END + "\n\nMore.\n"), written);
        assertEquals(OptionDocs.markdown(OptionRegistry.load()), OptionDocs.readmeBlock(written));

        Cli.Result again = Cli.run("conf", "--write-readme", readme.toString());
        assertEquals(ExitCodes.OK, again.exitCode());
        assertEquals(written, Files.readString(readme), "idempotent");
    }

    @Test
    void writeReadmeNeedsTheMarkers(@TempDir Path dir) throws Exception {
        Path readme = Files.writeString(dir.resolve("README.md"), "# Title\n");
        Cli.Result result = Cli.run("conf", "--write-readme", readme.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertTrue(result.err().contains("has no " + OptionDocs.README_BEGIN), result::toString);
        assertNull(OptionDocs.readmeBlock("no markers"));
    }
}
