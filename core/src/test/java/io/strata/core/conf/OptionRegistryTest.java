package io.strata.core.conf;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptionRegistryTest {
    private final OptionRegistry registry = TestOptions.registry();

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertEquals(0, OptionRegistry.editDistance("attr_timeout", "attr_timeout"));
        assertEquals(3, OptionRegistry.editDistance("kitten", "sitting"));
        assertEquals(3, OptionRegistry.editDistance("", "abc"));
        assertEquals(3, OptionRegistry.editDistance("abc", ""));
        assertEquals(1, OptionRegistry.editDistance("attr_timout", "attr_timeout"));
        assertEquals(2, OptionRegistry.editDistance("ab", "ba"));
        assertEquals(OptionRegistry.editDistance("flaw", "lawn"), OptionRegistry.editDistance("lawn", "flaw"));
    }

    @Test
    void findsOptionsByKeyAndAlias() {
        assertSame(TestOptions.PAGE_SIZE, registry.require("local_cache_page_size"));
        assertSame(TestOptions.PAGE_SIZE, registry.require("page_size"));
        assertTrue(registry.find("nope").isEmpty());
    }

    @Test
    void listsEveryOptionOnceInGroupOrder() {
        assertEquals(8, registry.all().size());
        assertEquals(List.of("Cache", "FUSE", "Storage"), registry.groups().stream().map(OptionGroup::title).toList());
    }

    @Test
    void unknownKeySuggestsTheClosestKey() {
        OptionException e = assertThrows(OptionException.class, () -> registry.require("attr_timout"));
        assertEquals("unknown option 'attr_timout'; did you mean 'attr_timeout'? "
                + "(run 'strata conf' to list every option)", e.getMessage());

        e = assertThrows(OptionException.class, () -> registry.require("kernelcache"));
        assertTrue(e.getMessage().contains("did you mean 'kernel_cache'?"), e.getMessage());

        e = assertThrows(OptionException.class, () -> registry.require("buffer-size"));
        assertTrue(e.getMessage().contains("did you mean 'buffer_size'?"), e.getMessage());
    }

    @Test
    void unknownKeyInAnEmptyRegistryIsStillAnOptionError() {
        OptionRegistry empty = new OptionRegistry(List.of());
        OptionException e = assertThrows(OptionException.class, () -> empty.require("attr_timeout"));
        assertTrue(e.getMessage().startsWith("unknown option 'attr_timeout'"), e.getMessage());
    }

    @Test
    void aNameDeclaredTwiceIsRejected() {
        Option<String> clash = Option.builder("other", OptionType.STRING).aliases("buffer_size").build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new OptionRegistry(List.of(TestOptions.CACHE, TestOptions.group("Clash", clash))));
        assertTrue(e.getMessage().contains("buffer_size"), e.getMessage());
    }

    @Test
    void aDefaultThatFailsItsOwnCheckIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Option.builder("n", OptionType.INT)
                .defaultValue(0).check(n -> n > 0, "positive").build());
    }
}
