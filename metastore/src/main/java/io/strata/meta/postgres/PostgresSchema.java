package io.strata.meta.postgres;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStores;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * Creates the tables of a new volume (as listed in the header of {@link PostgresMetaStore}) and
 * checks the format version and encoding of an existing one.
 */
final class PostgresSchema {
    /** Advisory lock (transaction-scoped) held while a volume is formatted, so two clients format it once. */
    static final long FORMAT_LOCK = 0x5374_7261_7461_0001L; // "Strata" + 1
    /** Advisory lock (transaction-scoped) held by a rename that moves a directory to another parent. */
    static final long DIRECTORY_MOVE_LOCK = 0x5374_7261_7461_0002L;

    /** The name columns' type: UTF-8 byte order, which is code point order, the same as {@link io.strata.meta.Names#ORDER}. */
    private static final String NAME = "TEXT COLLATE \"C\"";

    private PostgresSchema() {}

    /** The DDL of every table. Keep in step with PostgresMetaStore's header. */
    static List<String> ddl() {
        return List.of(
                "CREATE TABLE inodes ("
                        + "ino BIGINT NOT NULL PRIMARY KEY, type INTEGER NOT NULL, mode INTEGER NOT NULL, "
                        + "uid INTEGER NOT NULL, gid INTEGER NOT NULL, atime_ns BIGINT NOT NULL, "
                        + "mtime_ns BIGINT NOT NULL, ctime_ns BIGINT NOT NULL, nlink INTEGER NOT NULL, "
                        + "size BIGINT NOT NULL, rdev BIGINT NOT NULL, parent BIGINT NOT NULL, "
                        + "name " + NAME + " NOT NULL, ufs_version TEXT, synced_ns BIGINT NOT NULL, target TEXT)",
                "CREATE TABLE dentries ("
                        + "parent BIGINT NOT NULL, name " + NAME + " NOT NULL, ino BIGINT NOT NULL, "
                        + "type INTEGER NOT NULL, PRIMARY KEY (parent, name))",
                "CREATE INDEX dentries_by_ino ON dentries (ino)",
                "CREATE TABLE xattrs ("
                        + "ino BIGINT NOT NULL, name " + NAME + " NOT NULL, value BYTEA NOT NULL, "
                        + "PRIMARY KEY (ino, name))",
                "CREATE TABLE counters ("
                        + "shard INTEGER NOT NULL PRIMARY KEY, inodes BIGINT NOT NULL, used_bytes BIGINT NOT NULL)",
                "CREATE TABLE settings (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL)",
                "CREATE SEQUENCE inode_numbers START WITH " + (Inode.ROOT + 1));
    }

    /**
     * Makes the database a volume this build can use: formats an empty one (tables, counters,
     * root inode), checks the format version of an existing one. Runs in the caller's
     * transaction under {@link #FORMAT_LOCK}.
     */
    static void prepare(Connection connection, PostgresRows rows, String where, long nowNs)
            throws IOException, SQLException {
        checkEncoding(connection, where);
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            lock.setLong(1, FORMAT_LOCK);
            lock.executeQuery().close();
        }
        if (tableExists(connection, "settings")) {
            checkVersion(rows.setting(MetaStores.FORMAT_VERSION_KEY), where);
            return;
        }
        try (Statement statement = connection.createStatement()) {
            for (String ddl : ddl()) {
                statement.execute(ddl);
            }
        }
        rows.putSetting(MetaStores.FORMAT_VERSION_KEY, Integer.toString(MetaStores.FORMAT_VERSION));
        for (int shard = 0; shard < PostgresRows.COUNTER_SHARDS; shard++) {
            rows.update("INSERT INTO counters (shard, inodes, used_bytes) VALUES (?, ?, 0)", shard, shard == 0 ? 1L : 0L);
        }
        Inode root = new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, nowNs, nowNs, nowNs, 2, 0, 0,
                Inode.ROOT, "", null, Inode.NEVER_SYNCED);
        rows.insertInode(root, null);
    }

    /** Names are compared as UTF-8 bytes; a database in another encoding would order them differently. */
    private static void checkEncoding(Connection connection, String where) throws IOException, SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW server_encoding")) {
            rows.next();
            String encoding = rows.getString(1);
            if (!"UTF8".equalsIgnoreCase(encoding)) {
                throw new IOException(where + " has encoding " + encoding
                        + ": a Strata metastore needs a UTF8 database (CREATE DATABASE ... ENCODING 'UTF8')");
            }
        }
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

    /** Whether the table exists in the connection's search path (the current schema). */
    private static boolean tableExists(Connection connection, String table) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            statement.setString(1, table);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getBoolean(1);
            }
        }
    }
}
