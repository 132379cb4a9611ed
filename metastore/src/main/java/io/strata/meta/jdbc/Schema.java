package io.strata.meta.jdbc;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.VolumeFormat;
import io.strata.meta.jdbc.dialect.SqlDialect;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates the tables of a new volume (as listed in package-info) and checks the format version
 * of an existing one.
 */
final class Schema {
    private Schema() {}

    /** The DDL of the tables every dialect has, with its types, then of its own (counters, numbers). */
    static List<String> ddl(SqlDialect dialect) {
        String name = dialect.nameType();
        String text = dialect.textType();
        String options = dialect.tableOptions();
        List<String> ddl = new ArrayList<>(List.of(
                "CREATE TABLE inodes ("
                        + "ino BIGINT NOT NULL PRIMARY KEY, type INTEGER NOT NULL, mode INTEGER NOT NULL, "
                        + "uid INTEGER NOT NULL, gid INTEGER NOT NULL, atime_ns BIGINT NOT NULL, "
                        + "mtime_ns BIGINT NOT NULL, ctime_ns BIGINT NOT NULL, nlink INTEGER NOT NULL, "
                        + "size BIGINT NOT NULL, rdev BIGINT NOT NULL, parent BIGINT NOT NULL, "
                        + "name " + name + " NOT NULL, ufs_version " + text + ", synced_ns BIGINT NOT NULL, "
                        + "target " + text + ")" + options,
                "CREATE TABLE dentries ("
                        + "parent BIGINT NOT NULL, name " + name + " NOT NULL, ino BIGINT NOT NULL, "
                        + "type INTEGER NOT NULL, PRIMARY KEY (parent, name))" + options,
                "CREATE INDEX dentries_by_ino ON dentries (ino)",
                "CREATE TABLE xattrs ("
                        + "ino BIGINT NOT NULL, name " + name + " NOT NULL, value " + dialect.blobType() + " NOT NULL, "
                        + "PRIMARY KEY (ino, name))" + options));
        ddl.addAll(dialect.counters().ddl().stream().map(table -> table + options).toList());
        ddl.addAll(dialect.inodeNumbers().ddl().stream().map(table -> table + options).toList());
        // last: a database with this table is a formatted volume
        ddl.add("CREATE TABLE settings (\"key\" " + dialect.keyType() + " NOT NULL PRIMARY KEY, value " + text
                + " NOT NULL)" + options);
        return ddl;
    }

    /**
     * Makes the database a volume this build can use: formats an empty one (tables, counters,
     * root inode), checks the format version of an existing one. Runs in the caller's write
     * transaction, under the dialect's format lock, so two stores opening a new database at once
     * format it once.
     */
    static void prepare(Rows rows, SqlDialect dialect, long nowNs) throws IOException, SQLException {
        var session = rows.session();
        dialect.checkDatabase(session, dialect.describe());
        dialect.lockFormat(session);
        if (dialect.tableExists(session, "settings")) {
            VolumeFormat.check(rows.setting(VolumeFormat.VERSION_KEY), dialect.describe());
            return;
        }
        try (Statement statement = session.connection().createStatement()) {
            for (String ddl : ddl(dialect)) {
                statement.execute(ddl);
            }
        }
        rows.putSetting(VolumeFormat.VERSION_KEY, Integer.toString(VolumeFormat.VERSION));
        dialect.counters().format(session);
        dialect.inodeNumbers().format(session, Inode.ROOT + 1);
        rows.insertInode(root(nowNs), null);
    }

    /** The root directory of a new or emptied volume. */
    static Inode root(long nowNs) {
        return new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, nowNs, nowNs, nowNs, 2, 0, 0, Inode.ROOT, "",
                null, Inode.NEVER_SYNCED);
    }
}
