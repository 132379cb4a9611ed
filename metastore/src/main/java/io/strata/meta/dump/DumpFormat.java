/*
 * The dump format, version 1: one JSON document (UTF-8; gzip-compressed when the file name ends
 * in .gz), written by DumpWriter with Jackson's JsonGenerator and read by DumpReader with its
 * JsonParser, one entry at a time. Members come in this order and no other:
 *
 *   {"format":"strata-dump",             always this string: what the file is
 *    "version":1,                        this format's version; a reader refuses a newer one
 *    "settings":{"ufs_uri":"s3://b/p"},  the volume settings by key (format_version left out:
 *                                        the target keeps its own), in key order
 *    "secretsRemoved":["s3_secret"],     keys of settings left out as secrets (strata dump
 *                                        --keep-secrets keeps them; then this is [])
 *    "counters":{"nextInode":N,"inodes":N,"usedBytes":N},
 *                                        as the source kept them: the next inode number to hand
 *                                        out, how many inodes, the sum of file sizes. A load
 *                                        recomputes inodes and usedBytes and reports a difference
 *    "sustained":[],                     open-but-unlinked inodes: reserved, always empty in
 *                                        version 1 (a reader refuses a non-empty list)
 *    "tree":ROOT}
 *
 * ROOT and every ENTRY are objects with these members, in this order (? = only when it applies):
 *
 *   "name":"a.txt"     ENTRY only: the entry's name in its directory (any Java string: control
 *                      characters and unpaired surrogates are written as JSON \\u escapes)
 *   "ino":42           the inode number; a hard link shows the same number at each of its names
 *   "type":"file"      file | dir | symlink | fifo | socket | chardev | blockdev
 *   "mode":"0644"      permission bits, octal, 4 digits (07777 at most)
 *   "uid":0, "gid":0
 *   "atime":N, "mtime":N, "ctime":N      nanoseconds since the epoch
 *   "nlink":1          as the source kept it; a load counts names and subdirectories instead
 *                      and reports every inode whose dumped nlink disagrees
 *   "size":0, "rdev":0
 *   "primary":false    ? this name is not the inode's primary link (the name its data lives
 *                      under in the under storage); absent on the primary link
 *   "ufsVersion":"e1"  ? the under-storage version the metastore recorded
 *   "synced":N         ? directories: when the listing was last merged, -1 = never
 *   "target":"../x"    ? symlinks: the target
 *   "xattrs":{"user.k":"AAE="}
 *                      ? extended attributes by name, in name order; values are base64
 *                      (RFC 4648, with padding), so any bytes, the empty value "" included
 *   "entries":[ENTRY, ...]
 *                      directories (always, [] when empty): the entries in name order
 *                      (Names.ORDER, Unicode code points), each directory's subtree right after
 *                      its own entry: depth first, as find(1) lists a tree
 *
 * Each top-level member and each entry starts a line, so a dump reads (and diffs) as one entry per
 * line. The same tree dumped from any engine gives the same bytes.
 *
 * The binary encoding (DumpEncoding.BINARY; strata dump picks it for FILE.sdump[.gz] or --format
 * binary, strata load tells it by its first bytes) is the same document, members and order, in
 * Smile, Jackson's binary JSON, written and read by the same DumpWriter and DumpReader through a
 * SmileFactory, then a trailer:
 *
 *   ":)\n" + version byte   Smile's header (raw binary allowed, shared names and short values on)
 *   the document          as above, without line breaks; member names and repeated short strings
 *                         ("file", "0644") are back-references of a byte or two; numbers are
 *                         variable-length; xattr values are raw bytes, not base64; a string with
 *                         an unpaired surrogate (which UTF-8 cannot hold) or starting with U+0000
 *                         is escaped as BinaryStrings says
 *   0xFF                  Smile's end marker: any Smile reader stops here
 *   80 bytes              the trailer (DumpTrailer): "SDUMPEND", the length N of everything
 *                         before it, the entries by type, a CRC32C of bytes 0..N-1, its own CRC32C
 *
 * Why Smile rather than CBOR: it is Jackson's own binary format, so JsonGenerator and JsonParser
 * (and their byte offsets for errors) are the same code path; its back-references for repeated
 * member names and short values take a dump's 14 names per entry to a byte each, which CBOR
 * (without the stringref extension that few readers know) writes out in full every time. JSON
 * stays the interchange format: diffable, readable by anything; binary is for backups and moves
 * between Strata volumes. JSON has no trailer: a version-1 reader refuses anything after the
 * document, so one would break every dump reader already out; a cut JSON dump is refused anyway
 * because its brackets do not close.
 *
 * A binary dump that is truncated (anywhere: the trailer is checked for at the end of the input),
 * has bytes changed (the CRC) or bytes added is refused, with the offset where its document ends
 * ("the dump ends at byte N before its trailer: truncated"); a change that breaks the Smile
 * structure is refused where the parser finds it, as in JSON. Offsets count the uncompressed bytes.
 */
package io.strata.meta.dump;

import io.strata.meta.MetaStoreUrls;
import io.strata.meta.InodeType;

import java.util.regex.Pattern;

/** The names and encodings of the dump format (the format is this file's header). */
final class DumpFormat {
    static final String FORMAT_NAME = "strata-dump";
    static final int VERSION = 1;

    // top level
    static final String FORMAT = "format";
    static final String VERSION_FIELD = "version";
    static final String SETTINGS = "settings";
    static final String SECRETS_REMOVED = "secretsRemoved";
    static final String COUNTERS = "counters";
    static final String NEXT_INODE = "nextInode";
    static final String INODES = "inodes";
    static final String USED_BYTES = "usedBytes";
    static final String SUSTAINED = "sustained";
    static final String TREE = "tree";

    // entries
    static final String NAME = "name";
    static final String INO = "ino";
    static final String TYPE = "type";
    static final String MODE = "mode";
    static final String UID = "uid";
    static final String GID = "gid";
    static final String ATIME = "atime";
    static final String MTIME = "mtime";
    static final String CTIME = "ctime";
    static final String NLINK = "nlink";
    static final String SIZE = "size";
    static final String RDEV = "rdev";
    static final String PRIMARY = "primary";
    static final String UFS_VERSION = "ufsVersion";
    static final String SYNCED = "synced";
    static final String TARGET = "target";
    static final String XATTRS = "xattrs";
    static final String ENTRIES = "entries";

    /**
     * Setting keys that hold secrets: left out of a dump unless asked for. A value with a
     * password in it (a URL's user info, a {@code password=} parameter) is a secret too.
     */
    private static final Pattern SECRET_KEY =
            Pattern.compile("(?i).*(secret|password|passwd|pwd|token|credential|private).*");

    private DumpFormat() {}

    static String typeName(InodeType type) {
        return switch (type) {
            case FILE -> "file";
            case DIRECTORY -> "dir";
            case SYMLINK -> "symlink";
            case FIFO -> "fifo";
            case SOCKET -> "socket";
            case CHAR_DEVICE -> "chardev";
            case BLOCK_DEVICE -> "blockdev";
        };
    }

    /** The type named {@code name}, or null if none is. */
    static InodeType type(String name) {
        return switch (name) {
            case "file" -> InodeType.FILE;
            case "dir" -> InodeType.DIRECTORY;
            case "symlink" -> InodeType.SYMLINK;
            case "fifo" -> InodeType.FIFO;
            case "socket" -> InodeType.SOCKET;
            case "chardev" -> InodeType.CHAR_DEVICE;
            case "blockdev" -> InodeType.BLOCK_DEVICE;
            default -> null;
        };
    }

    /** Permission bits as 4 octal digits: 0644. */
    static String mode(int mode) {
        String octal = Integer.toOctalString(mode);
        return "0000".substring(Math.min(4, octal.length())) + octal;
    }

    /** The permission bits written as {@link #mode(int)} does, or -1 if {@code text} is not that. */
    static int mode(String text) {
        if (text.length() != 4) {
            return -1;
        }
        int mode = 0;
        for (int i = 0; i < 4; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '7') {
                return -1;
            }
            mode = mode * 8 + (c - '0');
        }
        return mode;
    }

    static boolean isSecret(String key, String value) {
        return SECRET_KEY.matcher(key).matches()
                || !MetaStoreUrls.redact(value).equals(value);
    }
}
