package io.strata.cli;

import io.strata.core.conf.Option;
import io.strata.core.conf.OptionRegistry;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The README's options table and conf/strata.properties are generated from the registry; these
 * fail when an option is added, removed or changed without regenerating them. Surefire runs in
 * the module directory, so the repository root is "..".
 */
class DocsInSyncTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    private static final String REGENERATE_README = "run 'bin/strata conf --write-readme README.md'";
    private static final String REGENERATE_PROPERTIES =
            "run 'bin/strata conf --properties > conf/strata.properties'";

    @Test
    void readmeTableListsEveryOption() throws Exception {
        Path readme = ROOT.resolve("README.md");
        if (!Files.isRegularFile(readme)) {
            fail(readme + " is missing; it must hold the options table between " + OptionDocs.README_BEGIN
                    + " and " + OptionDocs.README_END + " (" + REGENERATE_README + ")");
        }
        String block = OptionDocs.readmeBlock(Files.readString(readme));
        assertNotNull(block, () -> readme + " has no " + OptionDocs.README_BEGIN + " ... " + OptionDocs.README_END
                + " block; add the markers and " + REGENERATE_README);
        OptionRegistry registry = OptionRegistry.load();
        for (Option<?> option : registry.all()) {
            assertTrue(block.contains("| `" + option.key() + "`"),
                    () -> "option " + option.key() + " is missing from the README table; " + REGENERATE_README);
        }
        assertEquals(OptionDocs.markdown(registry), block, "the README options table is stale; " + REGENERATE_README);
    }

    @Test
    void confStrataPropertiesListsEveryOption() throws Exception {
        Path properties = ROOT.resolve("conf/strata.properties");
        assertTrue(Files.isRegularFile(properties), () -> properties + " is missing; " + REGENERATE_PROPERTIES);
        String text = Files.readString(properties);
        OptionRegistry registry = OptionRegistry.load();
        for (Option<?> option : registry.all()) {
            assertTrue(text.contains("\n#" + option.key() + "="),
                    () -> "option " + option.key() + " is missing from " + properties + "; " + REGENERATE_PROPERTIES);
        }
        assertEquals(OptionDocs.properties(registry), text, properties + " is stale; " + REGENERATE_PROPERTIES);
    }
}
