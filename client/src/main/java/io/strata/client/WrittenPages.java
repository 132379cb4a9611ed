package io.strata.client;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whole pages written through one open file since its last flush ({@code cache_on_write}): at the
 * flush, when the file's new version is known, they are cached under it, so reading back what was
 * just written needs no fetch.
 *
 * <p>Only pages whose every byte was written since the flush are kept: a page is staged from a
 * write that starts at its first byte and grows while later writes continue it without a gap (a
 * write into what is already staged just changes it); a gap, or a truncate, drops it. The file's
 * last page counts as whole once everything up to the end of file was written. Staged bytes come
 * from a volume-wide budget; past it pages are simply not staged.
 *
 * <p>A staged page holds only as many bytes as were written to it, growing by doubling up to the
 * page size: a small file written whole is one short page, and a page-sized array for it cost a
 * zeroed megabyte per file on the writer's path and kept the young generation churning.
 *
 * <p>Callers serialize {@link #written} with the under-storage write it mirrors, so the staged
 * bytes are the file's bytes.
 */
final class WrittenPages {
    private final int pageSize;
    private final AtomicLong budgetUsed;
    private final long budget;
    private final TreeMap<Long, Staged> pages = new TreeMap<>();

    WrittenPages(int pageSize, AtomicLong budgetUsed, long budget) {
        this.pageSize = pageSize;
        this.budgetUsed = budgetUsed;
        this.budget = budget;
    }

    /** A written page: its index and bytes. */
    record Page(long index, ByteBuffer data) {}

    private static final class Staged {
        byte[] bytes = new byte[0];
        int filled;
    }

    /** Mirrors a write of {@code src}'s remaining bytes at {@code offset}; leaves src's position alone. */
    synchronized void written(ByteBuffer src, long offset) {
        long end = offset + src.remaining();
        for (long index = offset / pageSize; index * pageSize < end; index++) {
            long pageStart = index * pageSize;
            int from = (int) (Math.max(offset, pageStart) - pageStart);
            int to = (int) (Math.min(end, pageStart + pageSize) - pageStart);
            Staged page = pages.get(index);
            if (page == null) {
                if (from != 0) {
                    continue;
                }
                page = new Staged();
                pages.put(index, page);
            } else if (from > page.filled) {
                drop(index);
                continue;
            }
            if (to > page.bytes.length && !grow(page, to)) {
                drop(index);
                continue;
            }
            int srcAt = (int) (pageStart + from - offset);
            src.duplicate().position(src.position() + srcAt).limit(src.position() + srcAt + (to - from))
                    .get(page.bytes, from, to - from);
            page.filled = Math.max(page.filled, to);
        }
    }

    /** A truncate: what was staged may no longer be the file's bytes. */
    synchronized void truncated() {
        clear();
    }

    /** Takes the pages that are whole in a file of {@code fileSize} bytes; forgets the rest. */
    synchronized List<Page> drain(long fileSize) {
        List<Page> whole = new ArrayList<>();
        for (Map.Entry<Long, Staged> e : pages.entrySet()) {
            long pageStart = e.getKey() * pageSize;
            long length = Math.min(pageSize, fileSize - pageStart);
            if (length > 0 && e.getValue().filled >= length) {
                whole.add(new Page(e.getKey(), ByteBuffer.wrap(e.getValue().bytes, 0, (int) length).slice()));
            }
        }
        clear();
        return whole;
    }

    synchronized boolean isEmpty() {
        return pages.isEmpty();
    }

    /** Makes room for {@code length} bytes in the page, within the budget; false if it has none. */
    private boolean grow(Staged page, int length) {
        int capacity = Math.min(pageSize, Math.max(length, 2 * page.bytes.length));
        int more = capacity - page.bytes.length;
        if (budgetUsed.addAndGet(more) > budget) {
            budgetUsed.addAndGet(-more);
            return false;
        }
        page.bytes = Arrays.copyOf(page.bytes, capacity);
        return true;
    }

    private void drop(long index) {
        Staged page = pages.remove(index);
        if (page != null) {
            budgetUsed.addAndGet(-page.bytes.length);
        }
    }

    private void clear() {
        for (Iterator<Staged> it = pages.values().iterator(); it.hasNext(); ) {
            budgetUsed.addAndGet(-it.next().bytes.length);
            it.remove();
        }
    }
}
