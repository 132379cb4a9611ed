package io.strata.client;

/**
 * Told when this client learns that the volume changed behind the frontend's back: another tool
 * changed the under storage (a re-listing under metadata_sync_interval, a new content version
 * found at open), or another client of a shared metastore did. A frontend that caches names or
 * data (the kernel, through FUSE) drops what it holds of them.
 *
 * <p>Called on the thread that learned it, possibly inside a frontend's request: implementations
 * must not block on the frontend.
 */
public interface ChangeListener {
    ChangeListener NONE = new ChangeListener() {
        @Override
        public void entryChanged(long parent, String name) {
        }

        @Override
        public void contentChanged(long ino) {
        }
    };

    /** The name {@code name} in directory {@code parent} appeared, went, or now names another inode. */
    void entryChanged(long parent, String name);

    /**
     * The name {@code name} in {@code parent}, which named inode {@code ino}, is gone. A frontend
     * can then also drop the name from open directory listings (FUSE's NOTIFY_DELETE).
     */
    default void entryRemoved(long parent, String name, long ino) {
        entryChanged(parent, name);
    }

    /** A file's content changed: its size, times and data are not what was shown before. */
    void contentChanged(long ino);
}
