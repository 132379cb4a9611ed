package io.strata.meta.dump;

import static java.util.Objects.requireNonNull;

/**
 * One name in a directory with the inode it names, as a {@link DumpSource} reads a page of a
 * directory.
 *
 * @param node the inode, or null when it vanished between reading the name and reading the inode
 *     (an engine without snapshots, changed while it was dumped): the dump leaves the name out
 */
public record DumpEntry(String name, long ino, DumpedInode node) {
    public DumpEntry {
        requireNonNull(name, "name is null");
        if (node != null && node.ino() != ino) {
            throw new IllegalArgumentException("entry '" + name + "' names inode " + ino + " but carries inode "
                    + node.ino());
        }
    }
}
