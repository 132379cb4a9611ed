package io.strata.meta;

import java.sql.Connection;
import java.sql.SQLException;

/** A database server the JDBC engine's tests make volumes on (PostgreSQL, MariaDB); see {@link TestServers}. */
public interface TestDatabase {
    /** A new, empty volume for one test: its metastore URL, with user and password; the test before's go. */
    String freshVolume();

    /** One more new, empty volume for the same test. */
    String anotherVolume();

    /** The metastore URL of the volume made last, with the given credentials (null: none). */
    String url(String user, String password);

    /** The name of the volume made last (a schema or a database), which messages about it show. */
    String currentVolume();

    /** A JDBC connection to the volume made last, for checks that look at its tables directly. */
    Connection connect() throws SQLException;

    String user();

    String password();
}
