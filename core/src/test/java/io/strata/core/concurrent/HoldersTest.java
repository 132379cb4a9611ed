package io.strata.core.concurrent;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What is held goes back once, when its last holder lets go, and nobody holds it afterwards. */
class HoldersTest {
    private final AtomicInteger givenBack = new AtomicInteger();
    private final Holders memory = new Holders(givenBack::incrementAndGet);

    @Test
    void theReceiverAloneGivesItBackOnRelease() {
        memory.release();
        assertEquals(1, givenBack.get());
        assertTrue(memory.givenBack());
    }

    @Test
    void itGoesBackWhenTheLastHolderLetsGo() {
        assertTrue(memory.retain());
        assertTrue(memory.retain());
        memory.release();
        memory.release();
        assertEquals(0, givenBack.get(), "one holder left");
        memory.release();
        assertEquals(1, givenBack.get());
    }

    @Test
    void nobodyHoldsItAfterItWentBack() {
        memory.release();
        assertFalse(memory.retain());
        assertEquals(1, givenBack.get(), "given back once");
    }

    @Test
    void aReleaseTooManyIsAnError() {
        memory.release();
        assertThrows(IllegalStateException.class, memory::release);
        assertEquals(1, givenBack.get());
    }
}
