package io.strata.core.cache;

import io.strata.core.cache.evict.EvictionPolicies;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryPageStoreTest extends AbstractPageStoreTest {
    @Override
    PageStore createStore() {
        return new MemoryPageStore(PAGE, (long) CAPACITY_PAGES * PAGE, EvictionPolicies.create("lru", 0), metrics);
    }

    @Override
    Map<PageId, Long> accounted(PageStore store) {
        Map<PageId, Long> out = new HashMap<>();
        ((MemoryPageStore) store).snapshot().forEach((id, length) -> out.put(id, (long) length));
        return out;
    }

    /** A page of {@code length} bytes of its own content, as a small file's only page is. */
    static ByteBuffer shortPage(PageId id, int length) {
        return ByteBuffer.wrap(content(id, length));
    }

    @Test
    void shortPagesShareAFrame() {
        int perFrame = PAGE / MemoryPageStore.MIN_SLOT;
        int pages = CAPACITY_PAGES * perFrame;
        for (int i = 0; i < pages; i++) {
            PageId id = id("small", i);
            assertTrue(store().put(id, shortPage(id, 10_000)));
        }
        assertEquals(pages, store().pageCount(), "every short page resident");
        for (int i = 0; i < pages; i++) {
            PageId id = id("small", i);
            assertArrayEquals(content(id, 10_000), read(store(), id, 0, PAGE));
        }
    }

    @Test
    void eachLengthReadsBackFromItsSlot() {
        int[] lengths = {1, MemoryPageStore.MIN_SLOT - 1, MemoryPageStore.MIN_SLOT, MemoryPageStore.MIN_SLOT + 1,
                PAGE / 4, PAGE / 2 + 1, PAGE - 1, PAGE};
        for (int i = 0; i < lengths.length; i++) {
            PageId id = id("sizes", i);
            assertTrue(store().put(id, shortPage(id, lengths[i])));
        }
        for (int i = 0; i < lengths.length; i++) {
            PageId id = id("sizes", i);
            assertEquals(lengths[i], store().length(id));
            assertArrayEquals(content(id, lengths[i]), read(store(), id, 0, PAGE));
        }
    }

    @Test
    void aFrameItsShortPagesLeftHoldsAWholePageAgain() {
        MemoryPageStore oneFrame = new MemoryPageStore(PAGE, PAGE, EvictionPolicies.create("lru", 0), metrics);
        try (oneFrame) {
            int perFrame = PAGE / MemoryPageStore.MIN_SLOT;
            for (int i = 0; i < perFrame; i++) {
                PageId id = id("small", i);
                assertTrue(oneFrame.put(id, shortPage(id, MemoryPageStore.MIN_SLOT)));
            }
            PageId whole = id("whole", 0);
            assertTrue(oneFrame.put(whole, page(whole)), "the short pages leave for a whole one");
            assertEquals(1, oneFrame.pageCount());
            assertArrayEquals(content(whole, PAGE), read(oneFrame, whole, 0, PAGE));

            PageId small = id("small", 100);
            assertTrue(oneFrame.put(small, shortPage(small, 5)));
            assertEquals(-1, oneFrame.length(whole), "and the whole page leaves for a short one");
            assertArrayEquals(content(small, 5), read(oneFrame, small, 0, PAGE));
        }
    }

    @Test
    void aPageFromASourceIsCopiedStraightIntoItsSlot() {
        MemoryPageStore memory = (MemoryPageStore) store();
        PageId id = id("promoted", 0);
        int length = PAGE / 2 + 1;
        assertTrue(memory.putFrom(id, length, slot -> {
            assertEquals(length, slot.remaining(), "the slot is offered at the page's length");
            assertTrue(slot.isDirect(), "the slot itself, not a buffer between");
            slot.put(content(id, length));
            return length;
        }));
        assertEquals(length, memory.length(id));
        assertArrayEquals(content(id, length), read(memory, id, 0, PAGE));
    }

    @Test
    void aSourceThatCannotGiveThePageLeavesNothingAndItsRoomFree() {
        MemoryPageStore memory = (MemoryPageStore) store();
        PageId gone = id("gone", 0);
        assertFalse(memory.putFrom(gone, PAGE, slot -> -1), "a page vanished from disk");
        PageId shortened = id("short", 0);
        assertFalse(memory.putFrom(shortened, PAGE, slot -> PAGE - 1), "fewer bytes than the page has");
        assertEquals(-1, memory.length(gone));
        assertEquals(-1, memory.length(shortened));
        assertEquals(0, memory.pageCount());
        for (int i = 0; i < CAPACITY_PAGES; i++) {
            PageId id = id("after", i);
            assertTrue(memory.put(id, page(id)));
        }
        assertEquals(CAPACITY_PAGES, memory.pageCount(), "the failed puts' slots hold nothing and were given back");
    }

    @Test
    void aSourceThatThrowsLeavesNothingAndItsRoomFree() {
        MemoryPageStore memory = (MemoryPageStore) store();
        PageId failing = id("failing", 0);
        assertThrows(IllegalStateException.class, () -> memory.putFrom(failing, PAGE, slot -> {
            throw new IllegalStateException("the page file could not be read");
        }));
        assertEquals(-1, memory.length(failing));
        assertEquals(0, memory.pageCount());
        for (int i = 0; i < CAPACITY_PAGES; i++) {
            PageId id = id("after", i);
            assertTrue(memory.put(id, page(id)));
        }
        assertEquals(CAPACITY_PAGES, memory.pageCount(), "the failed put's slot was given back");
    }

    @Test
    void aShortPageEvictsOnlyUntilASlotIsFree() {
        int perFrame = PAGE / MemoryPageStore.MIN_SLOT;
        for (int i = 0; i < CAPACITY_PAGES * perFrame; i++) {
            PageId id = id("small", i);
            store().put(id, shortPage(id, 1_000));
        }
        PageId next = id("small", 10_000);
        assertTrue(store().put(next, shortPage(next, 1_000)));
        assertEquals(-1, store().length(id("small", 0)), "the least recently used page left");
        assertEquals(1_000, store().length(id("small", 1)), "and no other");
        assertEquals(CAPACITY_PAGES * perFrame, store().pageCount());
    }

    @Test
    void readersNeverSeeWrongBytesWhileFramesAreCutAndJoined() throws Exception {
        PageStore store = store();
        int hits = hitsOfThreads(4, random -> {
            int found = 0;
            for (int i = 0; i < 2_000; i++) {
                int index = random.nextInt(CAPACITY_PAGES * 6);
                PageId id = id("mixed", index);
                int length = lengthOf(index);
                if (random.nextInt(3) == 0) {
                    store.put(id, shortPage(id, length));
                } else {
                    int offset = random.nextInt(length);
                    byte[] got = read(store, id, offset, length - offset);
                    if (got != null) {
                        assertArrayEquals(slice(content(id, length), offset, length - offset), got);
                        found++;
                    }
                }
            }
            return found;
        });
        assertTrue(hits > 0, "some reads hit");
    }

    /** Each page's own length, from whole pages down to a sixteenth of a slot. */
    private static int lengthOf(int index) {
        return switch (index % 4) {
            case 0 -> PAGE;
            case 1 -> PAGE / 2 - 7;
            case 2 -> MemoryPageStore.MIN_SLOT + 3;
            default -> MemoryPageStore.MIN_SLOT / 16;
        };
    }
}
