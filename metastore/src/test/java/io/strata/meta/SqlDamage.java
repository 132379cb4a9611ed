package io.strata.meta;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link AbstractFsckTest.Damage} for the JDBC engine (SQLite, PostgreSQL, MariaDB), whose inodes
 * and dentries tables are the same: one statement on a connection of its own per damage. The
 * counters tables differ, so each dialect says how to set them; {@link #sharded} is the servers'.
 */
public abstract class SqlDamage implements AbstractFsckTest.Damage {
    /** Opens a connection to the damaged volume. */
    @FunctionalInterface
    public interface Connector {
        Connection connect() throws SQLException;
    }

    /**
     * For the sharded counters of the servers: a counter is damaged in one of its 16 rows (shard
     * 3), as a lost delta would be, so the check has to add the rows up.
     */
    public static SqlDamage sharded(Connector connector) {
        return new SqlDamage() {
            @Override
            protected Connection connect() throws SQLException {
                return connector.connect();
            }

            @Override
            public void setUsedBytes(long usedBytes) throws SQLException {
                update(1, "UPDATE counters SET used_bytes = used_bytes + (? - (SELECT sum(used_bytes) FROM counters))"
                        + " WHERE shard = 3", usedBytes);
            }

            @Override
            public void setInodeCount(long inodes) throws SQLException {
                update(1, "UPDATE counters SET inodes = inodes + (? - (SELECT sum(inodes) FROM counters))"
                        + " WHERE shard = 3", inodes);
            }
        };
    }

    /** A new connection to the volume's database. */
    protected abstract Connection connect() throws SQLException;

    /** Runs {@code sql} with {@code parameters}, expecting it to change {@code rows} rows. */
    protected final void update(int rows, String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            assertEquals(rows, statement.executeUpdate(), sql);
        }
    }

    @Override
    public void setNlink(long ino, int nlink) throws SQLException {
        update(1, "UPDATE inodes SET nlink = ? WHERE ino = ?", nlink, ino);
    }

    /** The names of an inode are the dentries that name it (index dentries_by_ino): nothing apart to lose. */
    @Override
    public void forgetNames(long ino) {
        // nothing to do
    }

    @Override
    public void setPrimaryLink(long ino, long parent, String name) throws SQLException {
        update(1, "UPDATE inodes SET parent = ?, name = ? WHERE ino = ?", parent, name, ino);
    }

    @Override
    public void addEntry(long parent, String name, long ino, InodeType type) throws SQLException {
        update(1, "INSERT INTO dentries (parent, name, ino, type) VALUES (?, ?, ?, ?)", parent, name, ino,
                type.modeBits());
    }

    @Override
    public void removeEntry(long parent, String name) throws SQLException {
        update(1, "DELETE FROM dentries WHERE parent = ? AND name = ?", parent, name);
    }
}
