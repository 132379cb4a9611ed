package io.strata.core.cache;

import java.util.List;

/**
 * A read's bytes as regions of page files, in order, lent until closed: what a FUSE transport
 * splices to the kernel in place of copying the bytes ({@link PageCache#regions}).
 *
 * @param regions the pages' regions, in file order
 * @param length their total length: short of what was asked only at the end of the file
 */
public record PageRegions(List<PageRegion> regions, int length) implements AutoCloseable {
    public PageRegions {
        regions = List.copyOf(regions);
    }

    /** Gives every region's file back. */
    @Override
    public void close() {
        regions.forEach(PageRegion::close);
    }
}
