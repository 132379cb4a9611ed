package io.strata.meta.jdbc;

import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reads a server answers in one round trip, each one statement on one snapshot: a lookup with
 * its directory's type, a page with it, a page joined with its inodes, a symlink's type and
 * target, an xattr or the xattr names with whether the inode exists.
 */
final class Reads {
    private final Rows rows;

    Reads(Rows rows) {
        this.rows = rows;
    }

    /** The type and symlink target (null for other types) of an inode, or empty if it does not exist. */
    Optional<TypeAndTarget> typeAndTarget(long ino) throws SQLException {
        return rows.queryOne("SELECT type, target FROM inodes WHERE ino = ?",
                row -> new TypeAndTarget(Columns.type(row.getInt(1), ino), row.getString(2)), ino);
    }

    /** The directory's type and the entry, in one statement; null if the directory does not exist. */
    Lookup lookup(long parent, String name) throws SQLException {
        return rows.queryOne("SELECT i.type, d.ino, d.type FROM inodes i LEFT JOIN dentries d ON d.parent = i.ino"
                + " AND d.name = ? WHERE i.ino = ?", row -> {
                    InodeType type = Columns.type(row.getInt(1), parent);
                    long ino = row.getLong(2);
                    return new Lookup(type, row.wasNull() ? Optional.empty()
                            : Optional.of(new Dentry(parent, name, ino, Columns.type(row.getInt(3), ino))));
                }, name, parent).orElse(null);
    }

    /**
     * A page of a directory with the directory's own type, in one statement: null if the
     * directory does not exist; otherwise the type, then up to {@code limit} entries after
     * {@code after} in name order.
     */
    DirectoryPage page(long dir, String after, int limit) throws SQLException {
        String entries = "SELECT name, ino, type FROM dentries WHERE parent = ?" + (after == null ? "" : " AND name > ?")
                + " ORDER BY name LIMIT ?";
        List<Object> args = new ArrayList<>(List.of(dir));
        if (after != null) {
            args.add(after);
        }
        args.addAll(List.of(limit, dir));
        InodeType[] type = {null};
        List<Dentry> page = rows.queryList("SELECT i.type, d.name, d.ino, d.type FROM inodes i LEFT JOIN (" + entries
                + ") d ON 1 = 1 WHERE i.ino = ? ORDER BY d.name", row -> {
                    type[0] = Columns.type(row.getInt(1), dir);
                    String name = row.getString(2);
                    long ino = row.getLong(3);
                    return name == null ? null : new Dentry(dir, name, ino, Columns.type(row.getInt(4), ino));
                }, args.toArray());
        page.removeIf(entry -> entry == null);
        return type[0] == null ? null : new DirectoryPage(type[0], page);
    }

    /** A page of a directory joined with the inodes (readdirPlus); the entry's name is the last column. */
    List<DirectoryEntry> entriesWithInodes(long dir, String after, int limit) throws SQLException {
        String select = "SELECT " + Columns.JOINED_INODE + ", d.name FROM dentries d JOIN inodes i ON i.ino = d.ino"
                + " WHERE d.parent = ?";
        Rows.RowMapper<DirectoryEntry> entry = row -> {
            Inode inode = Columns.inode(row, 1);
            return new DirectoryEntry(new Dentry(dir, row.getString(Columns.INODE_COUNT + 1), inode.ino(),
                    inode.type()), inode);
        };
        if (after == null) {
            return rows.queryList(select + " ORDER BY d.name LIMIT ?", entry, dir, limit);
        }
        return rows.queryList(select + " AND d.name > ? ORDER BY d.name LIMIT ?", entry, dir, after, limit);
    }

    /** The value of an xattr, if set, in one statement with whether the inode exists: ENOENT if not. */
    Optional<byte[]> xattrOfExisting(long ino, String name) throws SQLException, FsException {
        Optional<Optional<byte[]>> found = rows.queryOne("SELECT x.name, x.value FROM inodes i LEFT JOIN xattrs x"
                + " ON x.ino = i.ino AND x.name = ? WHERE i.ino = ?",
                row -> Optional.ofNullable(row.getString(1) == null ? null : Rows.blob(row, 2)), name, ino);
        return found.orElseThrow(() -> FsException.notFound("inode " + ino));
    }

    /** The xattr names of an existing inode in name order, in one statement; ENOENT if it does not exist. */
    List<String> xattrNames(long ino) throws SQLException, FsException {
        List<Optional<String>> names = rows.queryList("SELECT x.name FROM inodes i LEFT JOIN xattrs x ON x.ino = i.ino"
                + " WHERE i.ino = ? ORDER BY x.name", row -> Optional.ofNullable(row.getString(1)), ino);
        if (names.isEmpty()) {
            throw FsException.notFound("inode " + ino);
        }
        return names.stream().flatMap(Optional::stream).toList();
    }

    /** A directory's type (to tell ENOTDIR) and one page of its entries. */
    record DirectoryPage(InodeType type, List<Dentry> entries) {}

    /** A directory's type (to tell ENOTDIR) and one of its entries, if present. */
    record Lookup(InodeType type, Optional<Dentry> entry) {}

    /** An inode's type and its symlink target (null for other types). */
    record TypeAndTarget(InodeType type, String target) {}
}
