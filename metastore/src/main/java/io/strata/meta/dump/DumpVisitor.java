package io.strata.meta.dump;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Receives a dump in its order: the header, then the tree depth first, then the end. The
 * {@link DumpReader} drives it from a file, the {@link TreeGenerator} from a made-up tree; the
 * {@link Loader} is the one that writes.
 */
interface DumpVisitor {
    void header(Header header) throws IOException;

    /**
     * A directory (the root first, with a null name); its entries follow, then
     * {@link #endDirectory()}.
     *
     * @param primary whether this name is the inode's primary link
     */
    void directory(String name, DumpedInode dir, boolean primary) throws IOException;

    /** An entry of any other type. */
    void entry(String name, DumpedInode node, boolean primary) throws IOException;

    void endDirectory() throws IOException;

    /** The document ended where it should. */
    void end() throws IOException;

    /** Everything a dump holds before its tree. */
    record Header(int version, Map<String, String> settings, List<String> secretsRemoved, DumpCounters counters) {}
}
