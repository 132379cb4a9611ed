package io.strata.it;

import io.strata.core.conf.Options;
import io.strata.fuse.FuseOptions;

import java.util.Locale;

/**
 * The FUSE transport this test run mounts with: the product default (Strata's own, {@code kernel})
 * unless {@code STRATA_FUSE} names another, as the second run of this suite does with {@code jnr}.
 * Tests that assert what differs between the two (request sizes, libfuse's hidden files) ask here.
 */
enum Transport {
    KERNEL(1024 * 1024),
    JNR(128 * 1024);

    private final long largestRequest;

    Transport(long largestRequest) {
        this.largestRequest = largestRequest;
    }

    static Transport current() {
        String named = System.getenv("STRATA_FUSE");
        return named == null || named.isBlank() ? KERNEL : valueOf(named.trim().toUpperCase(Locale.ROOT));
    }

    /** The value of the {@code fuse} option that selects it. */
    String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The largest write request the kernel sends through this transport. */
    long largestWrite() {
        return largestRequest;
    }

    /**
     * The largest read request the kernel sends through this transport: for Strata's own, what a
     * worker's pipe can splice whole on this machine, at most 1 MiB.
     */
    long largestRead() {
        return this == KERNEL ? FuseOptions.kernelMaxRead(Options.defaults()) : largestRequest;
    }
}
