package io.strata.core.buffer;

import io.strata.core.concurrent.Holders;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A holder's bytes: read until closed, shared as holders of their own, owned ones never given back. */
class LentBytesTest {
    private final AtomicInteger givenBack = new AtomicInteger();
    private final Holders memory = new Holders(givenBack::incrementAndGet);
    private final ByteBuffer bytes = ByteBuffer.wrap(new byte[] {1, 2, 3, 4});

    @Test
    void aViewHoldsTheMemoryUntilItIsClosedOnce() {
        LentBytes view = LentBytes.viewOf(memory, bytes);
        memory.release(); // the receiver lets go
        assertEquals(0, givenBack.get(), "the view still holds it");
        assertEquals(4, view.bytes().remaining());
        view.close();
        view.close();
        assertEquals(1, givenBack.get());
    }

    @Test
    void aSharedCopyIsAHolderOfItsOwn() {
        LentBytes view = LentBytes.viewOf(memory, bytes);
        memory.release();
        LentBytes shared = view.share();
        assertNotNull(shared);
        view.close();
        assertEquals(0, givenBack.get());
        assertEquals(3, shared.bytes().get(2));
        shared.close();
        assertEquals(1, givenBack.get());
    }

    @Test
    void nothingIsSharedOnceEveryHolderLetGo() {
        LentBytes view = LentBytes.viewOf(memory, bytes);
        memory.release();
        view.close();
        assertNull(view.share());
        assertNull(LentBytes.viewOf(memory, bytes));
    }

    @Test
    void closedBytesAreNotRead() {
        LentBytes view = LentBytes.viewOf(memory, bytes);
        view.close();
        assertThrows(IllegalStateException.class, view::bytes);
    }

    @Test
    void ownedBytesAreTheirHoldersForGood() {
        LentBytes owned = LentBytes.owned(bytes);
        assertSame(owned, owned.share());
        owned.close();
        assertEquals(4, owned.bytes().remaining(), "nothing was given back");
        assertTrue(owned.bytes().isReadOnly());
    }

    @Test
    void eachHolderHasItsOwnPosition() {
        LentBytes owned = LentBytes.owned(bytes);
        owned.bytes().get();
        assertEquals(4, owned.bytes().remaining());
    }

    @Test
    void aSharedRangeIsAHolderOfItsOwnOverThoseBytes() {
        LentBytes view = LentBytes.viewOf(memory, ByteBuffer.allocateDirect(4).put(bytes.duplicate()).flip());
        memory.release();
        LentBytes range = view.share(1, 2);
        assertNotNull(range);
        assertTrue(range.direct());
        assertEquals(2, range.remaining());
        assertEquals(2, range.bytes().get(0));
        assertEquals(3, range.bytes().get(1));
        view.close();
        assertEquals(0, givenBack.get(), "the range still holds the memory");
        range.close();
        assertEquals(1, givenBack.get());
        assertNull(view.share(0, 1), "nothing shared after every holder let go");
    }

    @Test
    void aRangeOfOwnedBytesIsASliceWithNothingToGiveBack() {
        LentBytes owned = LentBytes.owned(bytes);
        LentBytes range = owned.share(2, 2);
        assertEquals(3, range.bytes().get(0));
        assertTrue(!range.direct());
        assertThrows(IndexOutOfBoundsException.class, () -> owned.share(3, 2));
    }
}
