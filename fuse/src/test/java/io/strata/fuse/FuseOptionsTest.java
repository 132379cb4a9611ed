package io.strata.fuse;

import io.strata.core.conf.DataSize;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.Options;
import io.strata.fuse.kernel.KernelSession;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
    void byDefaultAReadsReplyAndItsHeaderFitAWorkersPipe() {
        int spliceable = KernelSession.largestSplicedRead();
        assumeTrue(spliceable > 0, "reads cannot be spliced here");
        int maxRead = FuseOptions.kernelMaxRead(Options.defaults());
        assertTrue(maxRead <= spliceable, maxRead + " bytes read, " + spliceable + " spliceable");
        assertTrue(maxRead >= 512 << 10, "no smaller than half a mebibyte: " + maxRead);
    }

    @Test
    void aGivenMaxReadIsKeptAndSoIsTheDefaultWithoutSplicedReads() {
        assertEquals(1 << 20, FuseOptions.kernelMaxRead(Options.defaults().with(FuseOptions.MAX_READ, DataSize.ofMiB(1))));
        assertEquals(256 << 10,
                FuseOptions.kernelMaxRead(Options.defaults().with(FuseOptions.MAX_READ, DataSize.ofKiB(256))));
        assertEquals(1 << 20, FuseOptions.kernelMaxRead(Options.defaults().with(FuseOptions.SPLICE_READ, false)));
    }

    @Test
    void aNegativeWorkerCountIsRefusedWithTheRangeItTakes() {
        OptionException e = assertThrows(OptionException.class, () -> FuseOptions.THREADS.parse("-1"));
        assertEquals("bad value for option fuse_threads: '-1' (expected from 0 (automatic) to 1024)", e.getMessage());
    }
}
