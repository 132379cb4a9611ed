package io.strata.meta.sql;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStores;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * Creates the tables of a new volume (as listed in the header of {@link SqlMetaStore}) and checks
 * the format version of an existing one.
 */
final class SqlSchema {
    private SqlSchema() {}

    /** The DDL of every table, in portable SQL with the dialect's types. Keep in step with SqlMetaStore's header. */
    static List<String> ddl(SqlDialect dialect) {
        String nameType = dialect.nameType();
        return List.of(
                "CREATE TABLE IF NOT EXISTS inodes ("
                        + "ino BIGINT NOT NULL PRIMARY KEY, type INTEGER NOT NULL, mode INTEGER NOT NULL, "
                        + "uid INTEGER NOT NULL, gid INTEGER NOT NULL, atime_ns BIGINT NOT NULL, "
                        + "mtime_ns BIGINT NOT NULL, ctime_ns BIGINT NOT NULL, nlink INTEGER NOT NULL, "
                        + "size BIGINT NOT NULL, rdev BIGINT NOT NULL, parent BIGINT NOT NULL, "
                        + "name " + nameType + " NOT NULL, ufs_version TEXT, synced_ns BIGINT NOT NULL, target TEXT)",
                "CREATE TABLE IF NOT EXISTS dentries ("
                        + "parent BIGINT NOT NULL, name " + nameType + " NOT NULL, ino BIGINT NOT NULL, "
                        + "type INTEGER NOT NULL, PRIMARY KEY (parent, name))",
                "CREATE INDEX IF NOT EXISTS dentries_by_ino ON dentries (ino)",
                "CREATE TABLE IF NOT EXISTS xattrs ("
                        + "ino BIGINT NOT NULL, name " + nameType + " NOT NULL, value " + dialect.blobType()
                        + " NOT NULL, PRIMARY KEY (ino, name))",
                "CREATE TABLE IF NOT EXISTS counters (name VARCHAR(64) NOT NULL PRIMARY KEY, value BIGINT NOT NULL)",
                "CREATE TABLE IF NOT EXISTS settings (key VARCHAR(255) NOT NULL PRIMARY KEY, value TEXT NOT NULL)");
    }

    /**
     * Makes the database a volume this build can use: formats an empty one (tables, counters,
     * root inode), checks the format version of an existing one. Runs in a write transaction so
     * two processes opening a new file at once format it once.
     */
    static void prepare(Connection connection, SqlRows rows, SqlDialect dialect, long nowNs)
            throws IOException, SQLException {
        if (tableExists(connection, "settings")) {
            checkVersion(rows.setting(MetaStores.FORMAT_VERSION_KEY), dialect.describe());
            return;
        }
        try (Statement statement = connection.createStatement()) {
            for (String ddl : ddl(dialect)) {
                statement.execute(ddl);
            }
        }
        rows.putSetting(MetaStores.FORMAT_VERSION_KEY, Integer.toString(MetaStores.FORMAT_VERSION));
        rows.insertCounter(SqlRows.NEXT_INODE, Inode.ROOT + 1);
        rows.insertCounter(SqlRows.INODES, 1);
        rows.insertCounter(SqlRows.USED_BYTES, 0);
        rows.insertInode(new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, nowNs, nowNs, nowNs, 2, 0, 0,
                Inode.ROOT, "", null, Inode.NEVER_SYNCED), null);
    }

    private static void checkVersion(Optional<String> stored, String where) throws IOException {
        if (stored.isEmpty()) {
            throw new IOException(where + " has no " + MetaStores.FORMAT_VERSION_KEY
                    + " setting: it is not a Strata metastore");
        }
        int version;
        try {
            version = Integer.parseInt(stored.get());
        } catch (NumberFormatException e) {
            throw new IOException(where + " has a malformed " + MetaStores.FORMAT_VERSION_KEY + " '" + stored.get()
                    + "'", e);
        }
        if (version > MetaStores.FORMAT_VERSION) {
            throw new IOException(where + " has format version " + version + ", newer than version "
                    + MetaStores.FORMAT_VERSION + " that this Strata reads: open it with a newer Strata");
        }
        if (version < MetaStores.FORMAT_VERSION) {
            throw new IOException(where + " has format version " + version + ", which this Strata cannot upgrade");
        }
    }

    private static boolean tableExists(Connection connection, String table) throws SQLException {
        try (ResultSet tables = connection.getMetaData().getTables(null, null, table, new String[] {"TABLE"})) {
            return tables.next();
        }
    }
}
