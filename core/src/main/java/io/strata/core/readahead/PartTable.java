package io.strata.core.readahead;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The part queue of one open file: the parts being fetched or fetched and not yet read, ordered by
 * offset and never overlapping, whichever session asked for them. A read first looks here, so a
 * range already on its way is never requested twice: concurrent readers of one range, and a reader
 * catching up with its own readahead, wait for the same GET. Only the gaps between parts are
 * fetched.
 *
 * <p>Not thread-safe: the {@link Prefetcher}'s lock guards it.
 */
final class PartTable {
    /** A range of the file not covered by any part. */
    record Gap(long start, long end) {
        long length() {
            return end - start;
        }
    }

    private final TreeMap<Long, Part> parts = new TreeMap<>();

    void add(Part part) {
        Map.Entry<Long, Part> before = parts.floorEntry(part.end - 1);
        if (before != null && before.getValue().end > part.start) {
            throw new IllegalStateException(part + " overlaps " + before.getValue());
        }
        parts.put(part.start, part);
    }

    /** Removes {@code part} if it is the one registered at its offset. */
    boolean remove(Part part) {
        return parts.remove(part.start, part);
    }

    /** The ranges of {@code [from, to)} no part covers, in order. */
    List<Gap> gaps(long from, long to) {
        List<Gap> gaps = new ArrayList<>();
        long position = from;
        for (Part part : overlapping(from, to)) {
            if (part.start > position) {
                gaps.add(new Gap(position, part.start));
            }
            position = Math.max(position, part.end);
        }
        if (position < to) {
            gaps.add(new Gap(position, to));
        }
        return gaps;
    }

    /** Where the parts that cover {@code from} without a gap end; {@code from} if none covers it. */
    long coveredEnd(long from) {
        long position = from;
        Map.Entry<Long, Part> entry = parts.floorEntry(position);
        if (entry == null || entry.getValue().end <= position) {
            entry = parts.ceilingEntry(position);
        }
        while (entry != null && entry.getKey() <= position) {
            position = Math.max(position, entry.getValue().end);
            entry = parts.higherEntry(entry.getKey());
        }
        return position;
    }

    /** The parts that overlap {@code [from, to)}, in order. */
    List<Part> overlapping(long from, long to) {
        List<Part> found = new ArrayList<>();
        Long first = parts.floorKey(from);
        for (Part part : parts.subMap(first != null ? first : from, true, to, false).values()) {
            if (part.end > from) {
                found.add(part);
            }
        }
        return found;
    }

    /** The parts that end at or before {@code offset}. */
    List<Part> endingBy(long offset) {
        List<Part> found = new ArrayList<>();
        for (Part part : parts.headMap(offset, false).values()) {
            if (part.end <= offset) {
                found.add(part);
            }
        }
        return found;
    }

    Collection<Part> all() {
        return parts.values();
    }

    int size() {
        return parts.size();
    }

    boolean isEmpty() {
        return parts.isEmpty();
    }
}
