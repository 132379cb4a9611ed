package io.strata.meta.postgres;

import io.strata.meta.MetaStores;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Taking a PostgreSQL metastore URL apart: credentials out of the JDBC URL, never in messages. */
final class PostgresUrlTest {
    private static final Map<String, String> NO_ENVIRONMENT = Map.of();

    @Test
    void credentialsLeaveTheUrlAndOtherParametersStay() {
        PostgresUrl url = PostgresUrl.parse("jdbc:postgresql://db:5433/meta?user=strata&password=p%26w&sslmode=require",
                NO_ENVIRONMENT::get);
        assertEquals("jdbc:postgresql://db:5433/meta?sslmode=require", url.jdbcUrl());
        assertEquals("strata", url.user());
        assertEquals("p&w", url.password());
        assertEquals("jdbc:postgresql://db:5433/meta?sslmode=require&user=strata", url.describe());
    }

    @Test
    void passwordComesFromTheEnvironmentOnlyWhenTheUrlHasNone() {
        Map<String, String> environment = Map.of(MetaStores.PASSWORD_ENV, "from-env");
        assertEquals("from-env", PostgresUrl.parse("jdbc:postgresql://db/meta?user=u", environment::get).password());
        assertEquals("in-url", PostgresUrl.parse("jdbc:postgresql://db/meta?password=in-url", environment::get)
                .password());
        PostgresUrl bare = PostgresUrl.parse("jdbc:postgresql://db/meta", NO_ENVIRONMENT::get);
        assertNull(bare.password());
        assertNull(bare.user());
        assertEquals("jdbc:postgresql://db/meta", bare.describe());
    }

    @Test
    void urlWithoutDatabaseIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> PostgresUrl.parse("jdbc:postgresql://db", NO_ENVIRONMENT::get));
        assertThrows(IllegalArgumentException.class, () -> PostgresUrl.parse("jdbc:postgresql://db/", NO_ENVIRONMENT::get));
    }
}
