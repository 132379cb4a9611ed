package io.strata.core.ufs.s3;

import io.strata.core.ufs.UfsStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Turns one directory's listing, in S3 key order, into entries with unique names.
 *
 * <p>S3 can hold an object {@code d} and keys under {@code d/} at once; a file system cannot
 * have a file and a directory of one name. As mountpoint-s3 does, the directory wins and the
 * object is hidden. The object {@code d} is listed before {@code d/} and possibly pages earlier
 * (keys such as {@code d.txt} sort between them), so each file waits here until a key past
 * {@code d/} shows that no such directory follows. Only files whose name is a prefix of the next
 * keys wait, so the held entries stay few.
 */
final class ListingMerger {
    private static final Logger log = LoggerFactory.getLogger(ListingMerger.class);

    private final Consumer<UfsStatus> sink;
    private final List<UfsStatus> waiting = new ArrayList<>();
    private String lastDirectory;

    ListingMerger(Consumer<UfsStatus> sink) {
        this.sink = requireNonNull(sink, "sink is null");
    }

    /** A file entry; entries must come in key order (a file sorts as its name, a directory as name + "/"). */
    void file(UfsStatus status) {
        release(status.name());
        waiting.add(status);
    }

    /** A directory entry; the same directory twice in a row (a marker and a prefix) is emitted once. */
    void directory(UfsStatus status) {
        if (status.name().equals(lastDirectory)) {
            return;
        }
        lastDirectory = status.name();
        release(status.name() + "/");
        for (Iterator<UfsStatus> it = waiting.iterator(); it.hasNext(); ) {
            UfsStatus file = it.next();
            if (file.name().equals(status.name())) {
                it.remove();
                log.debug("the object '{}' is hidden by the directory of the same name", file.name());
            }
        }
        sink.accept(status);
    }

    /** Emits what is still waiting: the listing is over. */
    void finish() {
        waiting.forEach(sink);
        waiting.clear();
    }

    /** Emits the waiting files that no directory can shadow any more, now that {@code sortKey} came. */
    private void release(String sortKey) {
        for (Iterator<UfsStatus> it = waiting.iterator(); it.hasNext(); ) {
            UfsStatus file = it.next();
            if (compareCodePoints(file.name() + "/", sortKey) < 0) {
                it.remove();
                sink.accept(file);
            }
        }
    }

    /** S3's key order: UTF-8 bytes, which is code point order (String.compareTo is UTF-16 order). */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
