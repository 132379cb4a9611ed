package io.strata.core.ufs;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One directory's whole listing, as {@link UnderFileSystem#list} would have streamed it: its
 * direct children, in the storage's order.
 *
 * @param name the directory's last path component
 * @param entries its direct children
 */
public record DirectoryListing(String name, List<UfsStatus> entries) {
    public DirectoryListing {
        requireNonNull(name, "name is null");
        entries = List.copyOf(entries);
    }
}
