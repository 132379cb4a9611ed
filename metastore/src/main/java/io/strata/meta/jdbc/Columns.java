package io.strata.meta.jdbc;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.jdbc.dialect.ResultRow;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/** The columns of the inode and dentry rows (see package-info), and the mapping between rows and records. */
final class Columns {
    static final String INODE = "ino, type, mode, uid, gid, atime_ns, mtime_ns, ctime_ns, nlink, size, rdev, "
            + "parent, name, ufs_version, synced_ns";
    /** The inode columns, then the symlink target: what a dump reads and a load writes. */
    static final String INODE_AND_TARGET = INODE + ", target";
    /** {@link #INODE} of a join, where "parent" and "name" would be ambiguous. */
    static final String JOINED_INODE = "i." + INODE.replace(", ", ", i.");
    static final int INODE_COUNT = 15;
    static final String INSERT_INODE = "INSERT INTO inodes (" + INODE_AND_TARGET + ") "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    static final String INSERT_DENTRY = "INSERT INTO dentries (parent, name, ino, type) VALUES (?, ?, ?, ?)";
    static final String INSERT_XATTR = "INSERT INTO xattrs (ino, name, value) VALUES (?, ?, ?)";

    private Columns() {}

    /** An inode from the {@value #INODE_COUNT} columns of {@link #INODE} starting at {@code first}. */
    static Inode inode(ResultRow row, int first) throws SQLException {
        try {
            int c = first;
            return new Inode(row.getLong(c), InodeType.fromMode(row.getInt(c + 1)), row.getInt(c + 2),
                    row.getInt(c + 3), row.getInt(c + 4), row.getLong(c + 5), row.getLong(c + 6), row.getLong(c + 7),
                    row.getInt(c + 8), row.getLong(c + 9), row.getLong(c + 10), row.getLong(c + 11),
                    row.getString(c + 12), row.getString(c + 13), row.getLong(c + 14));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException("corrupt inode row " + row.getLong(first) + ": " + e.getMessage(), e);
        }
    }

    static InodeType type(int modeBits, long ino) throws SQLException {
        try {
            return InodeType.fromMode(modeBits);
        } catch (IllegalArgumentException e) {
            throw new SQLException("corrupt type " + modeBits + " of inode " + ino, e);
        }
    }

    /** The values of an inode row, in the order of {@link #INODE_AND_TARGET}. */
    static Object[] values(Inode inode, String target) {
        return new Object[] {inode.ino(), inode.type().modeBits(), inode.mode(), inode.uid(), inode.gid(),
            inode.atimeNs(), inode.mtimeNs(), inode.ctimeNs(), inode.nlink(), inode.size(), inode.rdev(),
            inode.parent(), inode.name(), inode.ufsVersion(), inode.syncedNs(), target};
    }

    static void bindInode(PreparedStatement statement, Inode inode, String target) throws SQLException {
        Object[] values = values(inode, target);
        for (int i = 0; i < values.length; i++) {
            bind(statement, i + 1, values[i]);
        }
    }

    static void bindDentry(PreparedStatement statement, Dentry dentry) throws SQLException {
        statement.setLong(1, dentry.parent());
        statement.setString(2, dentry.name());
        statement.setLong(3, dentry.ino());
        statement.setInt(4, dentry.type().modeBits());
    }

    static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR); // only the nullable text columns are ever bound to null
        } else if (value instanceof Long v) {
            statement.setLong(index, v);
        } else if (value instanceof Integer v) {
            statement.setInt(index, v);
        } else if (value instanceof String v) {
            statement.setString(index, v);
        } else if (value instanceof byte[] v) {
            statement.setBytes(index, v);
        } else {
            throw new IllegalArgumentException("cannot bind " + value.getClass().getName());
        }
    }
}
