package io.strata.core.ufs.s3;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The pool's slots lent out are counted until each lease is closed, once. */
class LentSlotsTest {
    private final LentSlots slots = new LentSlots();
    private final AtomicInteger givenBack = new AtomicInteger();

    @Test
    void aSlotIsOutUntilItsLeaseIsClosedOnce() {
        LentSlots.Lease first = slots.lend(givenBack::incrementAndGet);
        slots.lend(givenBack::incrementAndGet);
        first.close();
        first.close();
        assertEquals(1, givenBack.get());
        assertEquals(1, slots.awaitAllBack(Duration.ZERO));
    }

    @Test
    void closeWaitsForASlotGivenBackMeanwhile() throws Exception {
        LentSlots.Lease lease = slots.lend(givenBack::incrementAndGet);
        CompletableFuture<Void> later = CompletableFuture.runAsync(lease::close,
                CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS));
        assertEquals(0, slots.awaitAllBack(Duration.ofSeconds(30)));
        later.get(30, TimeUnit.SECONDS);
        assertEquals(1, givenBack.get());
    }
}
