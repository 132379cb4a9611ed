package io.strata.hadoop;

import io.strata.client.StrataFileSystem;
import io.strata.meta.Dentry;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A directory's entries as {@link FileStatus}es, read a page at a time in name order: each page
 * one metastore listing, whose inodes the client's heap cache keeps so the status of each entry
 * reads nothing more.
 */
final class Listing implements RemoteIterator<FileStatus> {
    /** An entry's status. */
    @FunctionalInterface
    interface StatusOf {
        FileStatus status(Dentry entry) throws IOException;
    }

    /** A status as a located one. */
    @FunctionalInterface
    interface Locate {
        LocatedFileStatus locate(FileStatus status) throws IOException;
    }

    private final StrataFileSystem volume;
    private final long dir;
    private final StatusOf statusOf;
    private Iterator<Dentry> page = List.<Dentry>of().iterator();
    private String after;
    private boolean last;

    Listing(StrataFileSystem volume, long dir, StatusOf statusOf) {
        this.volume = volume;
        this.dir = dir;
        this.statusOf = statusOf;
    }

    @Override
    public boolean hasNext() throws IOException {
        while (!page.hasNext() && !last) {
            List<Dentry> next = volume.readdir(dir, after, Trees.PAGE);
            last = next.size() < Trees.PAGE;
            if (!next.isEmpty()) {
                after = next.get(next.size() - 1).name();
            }
            page = next.iterator();
        }
        return page.hasNext();
    }

    @Override
    public FileStatus next() throws IOException {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries");
        }
        return statusOf.status(page.next());
    }

    /** {@code statuses} that pass {@code filter}, located. */
    static RemoteIterator<LocatedFileStatus> located(RemoteIterator<FileStatus> statuses, PathFilter filter,
                                                     Locate locate) {
        return new RemoteIterator<>() {
            private FileStatus next;

            @Override
            public boolean hasNext() throws IOException {
                while (next == null && statuses.hasNext()) {
                    FileStatus candidate = statuses.next();
                    if (filter.accept(candidate.getPath())) {
                        next = candidate;
                    }
                }
                return next != null;
            }

            @Override
            public LocatedFileStatus next() throws IOException {
                if (!hasNext()) {
                    throw new NoSuchElementException("no more entries");
                }
                FileStatus status = next;
                next = null;
                return locate.locate(status);
            }
        };
    }

    /** The listing of a file: itself. */
    static final class Single implements RemoteIterator<FileStatus> {
        private FileStatus status;

        Single(FileStatus status) {
            this.status = status;
        }

        @Override
        public boolean hasNext() {
            return status != null;
        }

        @Override
        public FileStatus next() {
            if (status == null) {
                throw new NoSuchElementException("no more entries");
            }
            FileStatus result = status;
            status = null;
            return result;
        }
    }
}
