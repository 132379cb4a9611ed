package io.strata.fuse.kernel;

import io.strata.client.StrataFileSystem;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Open directories (OPENDIR to RELEASEDIR) and the positions READDIR continues from.
 *
 * <p>The kernel resumes a listing at an offset it got from the previous reply, while the metastore
 * pages by name. Each handle keeps the entries it has read, in order, so an offset is an index
 * (0 and 1 are "." and "..", then the entries): a name created or removed during the listing never
 * makes another one appear twice or vanish. Reading from offset 0 again (rewinddir) starts over.
 * The memory is the directory's names, held only while it is open.
 */
final class DirectoryHandles {
    private static final int PAGE = 1000;

    private final StrataFileSystem fs;
    private final ConcurrentMap<Long, Listing> open = new ConcurrentHashMap<>();
    private final AtomicLong next = new AtomicLong(1);

    DirectoryHandles(StrataFileSystem fs) {
        this.fs = fs;
    }

    long open(long dirIno) {
        long fh = next.getAndIncrement();
        open.put(fh, new Listing(dirIno));
        return fh;
    }

    Listing get(long fh) throws FsException {
        Listing listing = open.get(fh);
        if (listing == null) {
            throw new FsException(FsError.EBADF, "no open directory handle " + fh);
        }
        return listing;
    }

    void release(long fh) {
        open.remove(fh);
    }

    /**
     * One open directory's entries read so far, and the attributes of those read while serving the
     * current reply. Callers hold its monitor while they read it.
     */
    final class Listing {
        private final long dirIno;
        private final List<Dentry> entries = new ArrayList<>();
        private boolean complete;
        /** Where the current reply started reading: the index its first page's entries got. */
        private int replyStart;
        /**
         * The inodes of the entries from {@code replyStart} on, as their page read them: current as
         * a stat would be for the reply that read them, so READDIRPLUS encodes them without a
         * lookup each. Kept for one reply only, so an open directory holds names, not attributes.
         */
        private final List<Inode> readForReply = new ArrayList<>();

        private Listing(long dirIno) {
            this.dirIno = dirIno;
        }

        long dirIno() {
            return dirIno;
        }

        /** Forgets what was read, so the next read lists the directory as it is now. */
        void restart() {
            entries.clear();
            complete = false;
            beginReply();
        }

        /** Starts a reply: attributes read for an earlier one are not current any more. */
        void beginReply() {
            replyStart = entries.size();
            readForReply.clear();
        }

        /** The {@code index}-th entry (after "." and ".."), or null past the last one. */
        Dentry entry(int index) throws IOException {
            while (index >= entries.size() && !complete) {
                String after = entries.isEmpty() ? null : entries.get(entries.size() - 1).name();
                List<DirectoryEntry> page = fs.readdirPlus(dirIno, after, PAGE);
                for (DirectoryEntry listed : page) {
                    entries.add(listed.dentry());
                    readForReply.add(listed.inode());
                }
                complete = page.size() < PAGE;
            }
            return index < entries.size() ? entries.get(index) : null;
        }

        /**
         * The attributes of the {@code index}-th entry if its page was read for the current reply
         * ({@link #entry} read it since {@link #beginReply}), else null: then they are looked up.
         */
        Inode attributesReadForReply(int index) {
            int i = index - replyStart;
            return i >= 0 && i < readForReply.size() ? readForReply.get(i) : null;
        }
    }
}
