package io.strata.core.readahead;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The buffer budget: a semaphore in bytes, speculative reservations never wait, readers do. */
class BufferBudgetTest {
    @Test
    void tryReserveTakesWhatFitsAndNeverMore() {
        BufferBudget budget = new BufferBudget(100);
        assertTrue(budget.tryReserve(60));
        assertFalse(budget.tryReserve(41));
        assertTrue(budget.tryReserve(40));
        assertEquals(100, budget.used());
        budget.release(70);
        assertEquals(30, budget.used());
        assertEquals(100, budget.peak());
        assertThrows(IllegalStateException.class, () -> budget.release(31));
    }

    @Test
    void aReaderWaitsForRoomAndGetsItWhenBytesAreReleased() throws Exception {
        BufferBudget budget = new BufferBudget(100);
        assertTrue(budget.tryReserve(100));
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try {
                budget.reserve(50);
            } catch (java.io.InterruptedIOException e) {
                throw new RuntimeException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (budget.tryReserve(0) && !reader.isDone() && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // until the reader waits: then even a reservation of 0 is refused
        }
        assertFalse(reader.isDone());
        assertFalse(budget.tryReserve(0), "readahead gets nothing while a reader waits");
        budget.release(50);
        reader.get(10, TimeUnit.SECONDS);
        assertEquals(100, budget.used());
    }

    @Test
    void aWaitingReaderAsksHoldersToGiveBytesBack() throws Exception {
        BufferBudget budget = new BufferBudget(100);
        assertTrue(budget.tryReserve(80));
        AtomicLong asked = new AtomicLong();
        budget.register(wanted -> {
            asked.set(wanted);
            budget.release(80);
            return 80;
        });
        budget.reserve(50);
        assertEquals(30, asked.get(), "asked for what is missing");
        assertEquals(50, budget.used());
    }

    @Test
    void aReservationLargerThanTheBudgetIsABug() {
        BufferBudget budget = new BufferBudget(100);
        assertThrows(IllegalArgumentException.class, () -> budget.reserve(101));
        assertThrows(IllegalArgumentException.class, () -> new BufferBudget(0));
    }
}
