package io.strata.fuse.kernel;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The requests a {@link Rehearsal} makes, as a handler that answers them the way the operations
 * would sees them: decoded from the worker's buffer, replied to through {@link Replies}.
 */
class RehearsalTest {
    private static final long RESERVED = 42;
    private static final long HANDLE = 7;

    /** What the handler saw of one request. */
    private record Seen(int opcode, long nodeId, String name, long fh) {}

    private final List<Seen> seen = new ArrayList<>();

    /** Answers as the operations would: a miss for every lookup, a handle for OPENDIR, empty listings. */
    private void answer(Request request, Replies out) {
        switch (request.opcode()) {
            case Opcode.LOOKUP -> {
                seen.add(new Seen(request.opcode(), request.nodeId(), request.name(), -1));
                out.error(request, Errno.ENOENT);
            }
            case Opcode.OPENDIR -> {
                seen.add(new Seen(request.opcode(), request.nodeId(), null, -1));
                out.begin().putLong(HANDLE).putInt(0).putInt(0);
                out.send(request);
            }
            case Opcode.READDIRPLUS, Opcode.RELEASEDIR -> {
                seen.add(new Seen(request.opcode(), request.nodeId(), null, request.u64()));
                out.ok(request);
            }
            default -> {
                seen.add(new Seen(request.opcode(), request.nodeId(), null, -1));
                out.ok(request);
            }
        }
    }

    @Test
    void theRootsAttributesComeFirstThenEachRoundAsksAMissInTheReservedDirectoryAndItsAttributes()
            throws IOException {
        int answered = new Rehearsal(RESERVED, 2).run(this::answer);

        assertEquals(List.of(Opcode.GETATTR, Opcode.LOOKUP, Opcode.GETATTR, Opcode.OPENDIR, Opcode.READDIRPLUS,
                Opcode.RELEASEDIR, Opcode.LOOKUP, Opcode.GETATTR),
                seen.stream().map(Seen::opcode).toList());
        assertEquals(seen.size(), answered);
        assertEquals(LookupCounts.ROOT, seen.get(0).nodeId());
        seen.subList(1, seen.size()).forEach(request -> assertEquals(RESERVED, request.nodeId(), request.toString()));
    }

    @Test
    void noRoundsAskNothing() throws IOException {
        assertEquals(0, new Rehearsal(RESERVED, 0).run(this::answer));
        assertEquals(List.of(), seen);
    }

    @Test
    void everyLookupIsOfADifferentNameInTheReservedDirectory() throws IOException {
        new Rehearsal(RESERVED, 50).run(this::answer);

        List<Seen> lookups = seen.stream().filter(s -> s.opcode() == Opcode.LOOKUP).toList();
        assertEquals(50, lookups.size());
        Set<String> names = new HashSet<>();
        for (Seen lookup : lookups) {
            assertEquals(RESERVED, lookup.nodeId());
            assertTrue(lookup.name().startsWith(Rehearsal.MISSING), lookup.name());
            assertTrue(names.add(lookup.name()), "asked twice: " + lookup.name());
        }
    }

    @Test
    void theListingUsesTheHandleItsOpendirWasGivenAndReleasesIt() throws IOException {
        new Rehearsal(RESERVED, Rehearsal.LISTING_EVERY * 3).run(this::answer);

        List<Seen> listings = seen.stream()
                .filter(s -> s.opcode() == Opcode.READDIRPLUS || s.opcode() == Opcode.RELEASEDIR).toList();
        assertEquals(6, listings.size());
        listings.forEach(listing -> assertEquals(HANDLE, listing.fh(), listing.toString()));
        assertEquals(3, seen.stream().filter(s -> s.opcode() == Opcode.OPENDIR).count());
    }

    @Test
    void aRefusedOpendirIsNotFollowedByAListing() throws IOException {
        new Rehearsal(RESERVED, 1).run((request, out) -> {
            seen.add(new Seen(request.opcode(), request.nodeId(), null, -1));
            out.error(request, Errno.ENOENT);
        });

        assertEquals(List.of(Opcode.GETATTR, Opcode.LOOKUP, Opcode.GETATTR, Opcode.OPENDIR),
                seen.stream().map(Seen::opcode).toList());
    }

    @Test
    void aRequestTheHandlerLeavesUnansweredEndsTheRehearsalWithAnError() {
        IOException e = assertThrows(IOException.class, () -> new Rehearsal(RESERVED, 1).run((request, out) -> {
            if (request.opcode() != Opcode.LOOKUP) {
                out.ok(request);
            }
        }));
        assertTrue(e.getMessage().contains("lookup got no reply"), e.getMessage());
    }
}
