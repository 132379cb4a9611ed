/*
 * Key schema of the Redis metastore: Redis schema 2 (the key "schema"), in volumes of format
 * version 1 (VolumeFormat.VERSION, shared by every engine). One volume per database (the /db of
 * the URL); this class builds every key, in Java and, through luaPrelude(), in the Lua scripts.
 *
 *   setting     HASH    volume settings: key -> value. format_version is written on format and
 *                       checked on open; a database with keys but no "setting" is refused.
 *   schema      STRING  this engine's own layout version, "2" (SCHEMA below), written on format
 *                       and checked on open after format_version. Schema 1 (an inode as a HASH of
 *                       13-15 fields) had no such key: such a volume is refused with what to do
 *                       (dump it with the Strata that wrote it, load the dump with this one).
 *   counters    HASH    next_inode: the last inode number handed out (starts at 1; clients take
 *                       numbers in batches with HINCRBY, so numbers are never reused but may
 *                       skip); inodes: how many inodes exist; used_bytes: the sum of size over
 *                       FILE inodes.
 *   i<ino>      STRING  one inode, packed (RedisCodec.pack), every number big-endian:
 *                         offset  bytes
 *                          0      1   type letter (below)
 *                          1      1   flags: 1 = the inode has an x<ino> hash, 2 = it has a
 *                                     UFS version
 *                          2      4   mode (permission bits)
 *                          6      4   uid
 *                         10      4   gid
 *                         14      4   nlink
 *                         18      8   size
 *                         26      8   rdev
 *                         34      8   atime (ns, two's complement like every 8-byte field)
 *                         42      8   mtime
 *                         50      8   ctime
 *                         58      8   parent (the primary link; 1 for the root)
 *                         66      8   synced (ns of the last merged listing, -1 = never)
 *                         74      4   n, the length of the name; then the name (n bytes, "" for
 *                                     the root)
 *                         78+n    4   u, the length of the UFS version; then the version (u
 *                                     bytes; empty unless flag 2)
 *                         82+n+u  ..  the symlink target: the rest of the value (symlinks only)
 *                       About 90 bytes for a file (one SET: the server's CPU per million is a
 *                       quarter of an HSET of 13 fields). Lua numbers are doubles, so the
 *                       scripts never do arithmetic on the 8-byte fields: they copy them, splice
 *                       new ones (SETRANGE, or string.sub in Lua) that Java sent already packed,
 *                       and turn size and parent into decimal (and back) with digit-by-digit
 *                       arithmetic on bytes, which is exact. Only nlink (4 bytes) and the flags
 *                       byte are computed in Lua. The strings are length-prefixed or last, so
 *                       any byte of a name is safe.
 *   d<ino>      HASH    a directory's entries: name -> type letter + child ino ("f42", "d7").
 *   n<ino>      ZSET    the same names, every score 0, so ZRANGEBYLEX pages through a directory
 *                       in byte order of the UTF-8 names, which is Unicode code point order
 *                       (Names.ORDER), without loading it whole. d and n change together, in one
 *                       script.
 *   x<ino>      HASH    an inode's extended attributes: name -> value (bytes as given); it exists
 *                       exactly when flag 1 of i<ino> is set, so a dump reads it only then.
 *   l<ino>      ZSET    the names of a non-directory inode while it has two or more (absent at
 *                       nlink 1, where the primary link is the only name), every score 0, member
 *                       <parent as 20 digits>/<name>: the smallest member is the smallest
 *                       (parent, name), where the primary link moves when it is removed.
 *
 * <ino> is the decimal inode number; root is 1. Numbers in keys, entries, members and counters
 * are decimal ASCII, strings UTF-8. Type letters are ls's: f file, d directory, l symlink, p
 * FIFO, s socket, c char device, b block device.
 *
 * Every change of more than one key (create, link, unlink, rmdir, rename, mergeListing, setAttr
 * with the counters, xattrs with the inode's flag) is one Lua script run with EVALSHA, atomic on
 * the server. The scripts derive the keys of the inodes they find from the entries they read, so
 * the engine needs a standalone (or Sentinel-managed) Redis, not Redis Cluster.
 */
package io.strata.meta.redis;

import io.strata.meta.Inode;

import java.nio.charset.StandardCharsets;

/** Builds every key of the Redis metastore (the schema is this file's header) and the Lua that builds them too. */
final class RedisKeys {
    static final String SETTINGS = "setting";
    /** The key of this engine's schema version (see the header). */
    static final String SCHEMA_KEY = "schema";
    /** The schema this build writes and reads: an inode as one packed value. */
    static final int SCHEMA = 2;
    static final String COUNTERS = "counters";
    static final String NEXT_INODE = "next_inode";
    static final String INODES = "inodes";
    static final String USED_BYTES = "used_bytes";

    private static final String INODE = "i";
    private static final String ENTRIES = "d";
    private static final String NAMES = "n";
    private static final String XATTRS = "x";
    private static final String LINKS = "l";
    /** Digits of the parent in an l<ino> member: enough for any long, so members sort by parent first. */
    private static final int PARENT_DIGITS = 20;

    private RedisKeys() {}

    static String inode(long ino) {
        return INODE + ino;
    }

    static String entries(long dir) {
        return ENTRIES + dir;
    }

    static String names(long dir) {
        return NAMES + dir;
    }

    static String xattrs(long ino) {
        return XATTRS + ino;
    }

    static String links(long ino) {
        return LINKS + ino;
    }

    /** A member of l<ino>: the parent as {@value #PARENT_DIGITS} digits, '/', the name (as link_member in Lua). */
    static String linkMember(long parent, String name) {
        String digits = Long.toString(parent);
        return "0".repeat(PARENT_DIGITS - digits.length()) + digits + "/" + name;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The Lua that every script starts with: the same key builders and constants as above, so
     * the key schema is written down once.
     */
    static String luaPrelude() {
        return "local SETTINGS = '" + SETTINGS + "'\n"
                + "local COUNTERS = '" + COUNTERS + "'\n"
                + "local ROOT = '" + Inode.ROOT + "'\n"
                + "local SCHEMA_KEY = '" + SCHEMA_KEY + "'\n"
                + "local TYPE, FLAGS, MODE, UID, GID = " + RedisCodec.TYPE + ", " + RedisCodec.FLAGS + ", "
                + RedisCodec.MODE + ", " + RedisCodec.UID + ", " + RedisCodec.GID + "\n"
                + "local NLINK, SIZE, ATIME = " + RedisCodec.NLINK + ", " + RedisCodec.SIZE + ", " + RedisCodec.ATIME + "\n"
                + "local MTIME, CTIME, PARENT, SYNCED, NAME = " + RedisCodec.MTIME + ", " + RedisCodec.CTIME + ", "
                + RedisCodec.PARENT + ", " + RedisCodec.SYNCED + ", " + RedisCodec.NAME + "\n"
                + "local HAS_XATTRS, HAS_UFS = " + RedisCodec.HAS_XATTRS + ", " + RedisCodec.HAS_UFS + "\n"
                + "local function inode_key(ino) return '" + INODE + "' .. ino end\n"
                + "local function entries_key(ino) return '" + ENTRIES + "' .. ino end\n"
                + "local function names_key(ino) return '" + NAMES + "' .. ino end\n"
                + "local function xattrs_key(ino) return '" + XATTRS + "' .. ino end\n"
                + "local function links_key(ino) return '" + LINKS + "' .. ino end\n"
                + "local function link_member(parent, name)\n"
                + "  return string.rep('0', " + PARENT_DIGITS + " - #parent) .. parent .. '/' .. name\n"
                + "end\n"
                + "local function member_parent(member)\n"
                + "  return (string.gsub(string.sub(member, 1, " + PARENT_DIGITS + "), '^0+', ''))\n"
                + "end\n"
                + "local function member_name(member) return string.sub(member, " + (PARENT_DIGITS + 2) + ") end\n";
    }
}
