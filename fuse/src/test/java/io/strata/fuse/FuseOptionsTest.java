package io.strata.fuse;

import io.strata.core.conf.OptionException;
import io.strata.core.conf.Options;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The FUSE options whose values are worked out rather than taken as given. */
class FuseOptionsTest {
    @Test
    void byDefaultTheWorkersAreTwiceTheCpusFromFourToSixteen() {
        int cpus = Runtime.getRuntime().availableProcessors();
        assertEquals(0, Options.defaults().get(FuseOptions.THREADS), "the default is 'automatic'");
        assertEquals(Math.max(4, Math.min(16, 2 * cpus)), FuseOptions.workers(Options.defaults()));
    }

    @Test
    void aConfiguredWorkerCountIsKeptAsGiven() {
        assertEquals(1, FuseOptions.workers(Options.defaults().with(FuseOptions.THREADS, 1)));
        assertEquals(64, FuseOptions.workers(Options.defaults().with(FuseOptions.THREADS, 64)));
    }

    @Test
    void aNegativeWorkerCountIsRefusedWithTheRangeItTakes() {
        OptionException e = assertThrows(OptionException.class, () -> FuseOptions.THREADS.parse("-1"));
        assertEquals("bad value for option fuse_threads: '-1' (expected from 0 (automatic) to 1024)", e.getMessage());
    }
}
