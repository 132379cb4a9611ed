package io.strata.it;

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

    /** The largest read or write request the kernel sends through this transport. */
    long largestRequest() {
        return largestRequest;
    }
}
