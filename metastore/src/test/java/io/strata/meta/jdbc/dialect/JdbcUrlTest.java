package io.strata.meta.jdbc.dialect;

import io.strata.meta.MetaStoreUrls;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Taking a JDBC metastore URL apart: credentials out of the JDBC URL, never in messages. */
final class JdbcUrlTest {
    private static final String PG = "jdbc:postgresql://";
    private static final Map<String, String> NO_ENVIRONMENT = Map.of();

    @Test
    void credentialsLeaveTheUrlAndOtherParametersStay() {
        JdbcUrl url = JdbcUrl.parse("jdbc:postgresql://db:5433/meta?user=strata&password=p%26w&sslmode=require", PG, PG,
                NO_ENVIRONMENT::get);
        assertEquals("jdbc:postgresql://db:5433/meta?sslmode=require", url.jdbcUrl());
        assertEquals("strata", url.user());
        assertEquals("p&w", url.password());
        assertEquals("jdbc:postgresql://db:5433/meta?sslmode=require&user=strata", url.describe());
    }

    @Test
    void passwordComesFromTheEnvironmentOnlyWhenTheUrlHasNone() {
        Map<String, String> environment = Map.of(MetaStoreUrls.PASSWORD_ENV, "from-env");
        assertEquals("from-env", JdbcUrl.parse("jdbc:postgresql://db/meta?user=u", PG, PG, environment::get).password());
        assertEquals("in-url", JdbcUrl.parse("jdbc:postgresql://db/meta?password=in-url", PG, PG, environment::get)
                .password());
        JdbcUrl bare = JdbcUrl.parse("jdbc:postgresql://db/meta", PG, PG, NO_ENVIRONMENT::get);
        assertNull(bare.password());
        assertNull(bare.user());
        assertEquals("jdbc:postgresql://db/meta", bare.describe());
    }

    @Test
    void urlWithoutDatabaseIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> JdbcUrl.parse("jdbc:postgresql://db", PG, PG, NO_ENVIRONMENT::get));
        assertThrows(IllegalArgumentException.class,
                () -> JdbcUrl.parse("jdbc:postgresql://db/", PG, PG, NO_ENVIRONMENT::get));
    }

    @Test
    void mysqlUrlBecomesTheMariaDbDriversUrlWithoutCredentials() {
        JdbcUrl url = JdbcUrl.parse("JDBC:MYSQL://db:3306/meta?password=pw&user=u&useSsl=true", "jdbc:mysql://",
                MariaDbDialect.DRIVER_PREFIX, NO_ENVIRONMENT::get);
        assertEquals("jdbc:mariadb://db:3306/meta?useSsl=true", url.jdbcUrl());
        assertEquals("pw", url.password());
        assertEquals("jdbc:mariadb://db:3306/meta?useSsl=true&user=u", url.describe());
    }
}
