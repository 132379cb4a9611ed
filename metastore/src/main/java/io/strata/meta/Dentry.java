package io.strata.meta;

import static java.util.Objects.requireNonNull;

/** A directory entry: {@code name} in directory {@code parent} refers to inode {@code ino}. */
public record Dentry(long parent, String name, long ino, InodeType type) {
    public Dentry {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }
}
