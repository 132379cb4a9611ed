package io.strata.fuse.kernel;

import io.strata.client.StrataFileSystem;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;

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

    /** One open directory's entries read so far. Callers hold its monitor while they read it. */
    final class Listing {
        private final long dirIno;
        private final List<Dentry> entries = new ArrayList<>();
        private boolean complete;

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
        }

        /** The {@code index}-th entry (after "." and ".."), or null past the last one. */
        Dentry entry(int index) throws IOException {
            while (index >= entries.size() && !complete) {
                String after = entries.isEmpty() ? null : entries.get(entries.size() - 1).name();
                List<Dentry> page = fs.readdir(dirIno, after, PAGE);
                entries.addAll(page);
                complete = page.size() < PAGE;
            }
            return index < entries.size() ? entries.get(index) : null;
        }
    }
}
