package io.strata.meta.dump;

import io.strata.meta.Inode;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

import static java.util.Objects.requireNonNull;

/**
 * Walks the tree depth first for a dump, writing each entry as it goes, while the pages it will
 * need next are already being fetched.
 *
 * <p>The walk keeps a stack of frames, one per directory on the current path, each holding the
 * page of entries being written. Everything the walk will need later that it already knows of is
 * the remaining subdirectories of every frame's page (their first pages) and every frame's next
 * page; the earliest of those in depth-first order are the deepest frame's remaining
 * subdirectories, then its next page, then the same one frame up, and so on. {@link #prefetch()}
 * submits them in that order until {@code window} fetches are in flight or done but not yet
 * written, so the fetch the walk needs next has almost always been running for a while. Memory:
 * {@code window} pages plus one page per directory level, whatever the size of the tree.
 */
final class TreeWalker {
    private final DumpSource source;
    private final DumpWriter writer;
    private final ExecutorService fetchers;
    private final int pageSize;
    private final int window;
    private final Progress progress;
    private final Deque<Frame> stack = new ArrayDeque<>();
    private final Set<Long> onPath = new HashSet<>();
    private int outstanding;
    private long entries;
    private long vanished;

    TreeWalker(DumpSource source, DumpWriter writer, ExecutorService fetchers, int pageSize, int window,
               Progress progress) {
        this.source = requireNonNull(source, "source is null");
        this.writer = requireNonNull(writer, "writer is null");
        this.fetchers = requireNonNull(fetchers, "fetchers is null");
        this.pageSize = pageSize;
        this.window = window;
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Writes the root and everything below it. */
    void walk(DumpedInode root) throws IOException {
        writer.root(root);
        push(Inode.ROOT, source.page(Inode.ROOT, null, pageSize));
        while (!stack.isEmpty()) {
            Frame top = stack.peek();
            if (top.index < top.page.size()) {
                writeNext(top);
            } else if (top.more) {
                String after = top.page.get(top.page.size() - 1).name();
                List<DumpEntry> next = top.nextPage != null ? take(top.nextPage) : source.page(top.dir, after, pageSize);
                top.setPage(next, pageSize);
            } else {
                writer.endDirectory();
                stack.pop();
                onPath.remove(top.dir);
            }
            prefetch();
        }
    }

    /** Entries written (a hard link counts at each name). */
    long entries() {
        return entries;
    }

    /** Names whose inode was gone by the time it was read (engines without a snapshot only). */
    long vanished() {
        return vanished;
    }

    private void writeNext(Frame frame) throws IOException {
        int i = frame.index++;
        DumpEntry entry = frame.page.get(i);
        Future<List<DumpEntry>> childPage = frame.childPages[i];
        frame.childPages[i] = null;
        if (entry.node() == null) {
            vanished++;
            return;
        }
        Inode inode = entry.node().inode();
        boolean primary = inode.parent() == frame.dir && inode.name().equals(entry.name());
        if (inode.isDirectory()) {
            if (onPath.contains(inode.ino())) {
                throw new IOException("corrupt metastore: directory " + inode.ino() + " is its own ancestor (entry '"
                        + entry.name() + "' in directory " + frame.dir + ")");
            }
            writer.directory(entry.name(), entry.node(), primary);
            push(inode.ino(), childPage != null ? take(childPage) : source.page(inode.ino(), null, pageSize));
        } else {
            writer.entry(entry.name(), entry.node(), primary);
        }
        entries++;
        progress.advance(1);
    }

    private void push(long dir, List<DumpEntry> firstPage) {
        Frame frame = new Frame(dir);
        frame.setPage(firstPage, pageSize);
        stack.push(frame);
        onPath.add(dir);
    }

    /** Submits the fetches the walk will need soonest, deepest frame first, up to the window. */
    private void prefetch() {
        for (Frame frame : stack) { // top (deepest) first
            while (frame.prefetched < frame.page.size()) {
                if (outstanding >= window) {
                    return;
                }
                int i = frame.prefetched++;
                DumpEntry entry = frame.page.get(i);
                if (i >= frame.index && entry.node() != null && entry.node().inode().isDirectory()) {
                    frame.childPages[i] = submit(entry.ino(), null);
                }
            }
            if (frame.more && frame.nextPage == null) {
                if (outstanding >= window) {
                    return;
                }
                frame.nextPage = submit(frame.dir, frame.page.get(frame.page.size() - 1).name());
            }
        }
    }

    private Future<List<DumpEntry>> submit(long dir, String after) {
        outstanding++;
        return fetchers.submit(() -> source.page(dir, after, pageSize));
    }

    private List<DumpEntry> take(Future<List<DumpEntry>> page) throws IOException {
        outstanding--;
        try {
            return page.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while dumping");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }

    /** One directory on the current path and the page of it being written. */
    private static final class Frame {
        final long dir;
        List<DumpEntry> page;
        /** The next entry of the page to write. */
        int index;
        /** Entries before this one have had their first page submitted (or are not directories). */
        int prefetched;
        /** For each entry of the page: its first page, submitted ahead, or null. */
        Future<List<DumpEntry>>[] childPages;
        /** The page was full: the directory may have more. */
        boolean more;
        Future<List<DumpEntry>> nextPage;

        Frame(long dir) {
            this.dir = dir;
        }

        @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type
        void setPage(List<DumpEntry> entries, int pageSize) {
            page = entries;
            index = 0;
            prefetched = 0;
            childPages = new Future[entries.size()];
            more = entries.size() >= pageSize;
            nextPage = null;
        }
    }
}
