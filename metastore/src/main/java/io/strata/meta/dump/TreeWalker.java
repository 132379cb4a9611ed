package io.strata.meta.dump;

import io.strata.meta.Inode;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Arrays;
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
 * page; in depth-first order they come as the deepest frame's remaining subdirectories, then its
 * next page, then the same one frame up, and so on. {@link #prefetch()} keeps the first
 * {@code window} of them in that order submitted, so the fetch the walk needs next has almost
 * always been running for a while.
 *
 * <p>The window is counted in that order, not in pages held: a page fetched ahead for a frame
 * higher up (the next subdirectory of the root, say) is needed only once the whole subtree being
 * written is, and when the walk enters a subdirectory its pages come first. Counting every page
 * held, as this class first did, let the pages of the next subdirectories one level up fill the
 * window while the walk went down, leaving one leaf fetch in flight at a time (a 1M-inode dump
 * of Redis had its fetchers idle 70 % of the time, and the writer waiting for pages 74 %). Pages
 * fetched while they were among the first {@code window} and since pushed back stay held, at most
 * {@code window} per frame and {@value #HELD_PER_WINDOW} windows in all. Memory: that many pages
 * plus one page per directory level, whatever the size of the tree.
 */
final class TreeWalker {
    /** Pages held (fetching, or fetched and not yet written) at most, in windows. */
    static final int HELD_PER_WINDOW = 4;

    private final DumpSource source;
    private final DumpWriter writer;
    private final ExecutorService fetchers;
    private final int pageSize;
    private final int window;
    private final Progress progress;
    private final Deque<Frame> stack = new ArrayDeque<>();
    private final Set<Long> onPath = new HashSet<>();
    /** Fetches submitted and not yet taken by the walk. */
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

    /**
     * Submits the first {@code window} fetches the walk will need, in depth-first order, that are
     * not submitted yet, deepest frame first, while fewer than {@value #HELD_PER_WINDOW} windows
     * of pages are held.
     */
    private void prefetch() {
        int rank = 0; // pages ahead of the walk, in the order it needs them
        for (Frame frame : stack) { // top (deepest) first
            for (int d = frame.firstUnwrittenDirectory(); d < frame.directories.length; d++) {
                if (rank++ >= window) {
                    return;
                }
                int i = frame.directories[d];
                if (frame.childPages[i] == null) {
                    if (outstanding >= window * HELD_PER_WINDOW) {
                        return;
                    }
                    frame.childPages[i] = submit(frame.page.get(i).ino(), null);
                }
            }
            if (frame.more) {
                if (rank++ >= window) {
                    return;
                }
                if (frame.nextPage == null) {
                    if (outstanding >= window * HELD_PER_WINDOW) {
                        return;
                    }
                    frame.nextPage = submit(frame.dir, frame.page.get(frame.page.size() - 1).name());
                }
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
        /** The indexes in the page of the entries that are directories, ascending. */
        int[] directories;
        /** The first of {@link #directories} not yet written, as of the last look. */
        private int nextDirectory;
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
            int count = 0;
            int[] found = new int[entries.size()];
            for (int i = 0; i < entries.size(); i++) {
                DumpedInode node = entries.get(i).node();
                if (node != null && node.inode().isDirectory()) {
                    found[count++] = i;
                }
            }
            directories = Arrays.copyOf(found, count);
            nextDirectory = 0;
            childPages = new Future[entries.size()];
            more = entries.size() >= pageSize;
            nextPage = null;
        }

        /** The position in {@link #directories} of the first subdirectory not yet written. */
        int firstUnwrittenDirectory() {
            while (nextDirectory < directories.length && directories[nextDirectory] < index) {
                nextDirectory++;
            }
            return nextDirectory;
        }
    }
}
