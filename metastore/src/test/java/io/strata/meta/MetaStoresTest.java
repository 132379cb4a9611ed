package io.strata.meta;

import io.strata.meta.memory.MemoryMetaStore;
import io.strata.meta.jdbc.JdbcMetaStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Choosing an engine by URL, and keeping passwords out of the messages. */
final class MetaStoresTest {
    @TempDir
    Path dir;

    @Test
    void memoryUrlOpensMemoryEngine() throws IOException {
        try (MetaStore store = MetaStores.open("memory://")) {
            assertInstanceOf(MemoryMetaStore.class, store);
        }
    }

    @Test
    void eachMemoryStoreIsPrivate() throws IOException {
        try (MetaStore first = MetaStores.open("memory://"); MetaStore second = MetaStores.open("memory://")) {
            first.putSetting("k", "v");
            assertTrue(second.getSetting("k").isEmpty());
        }
    }

    @Test
    void sqliteUrlOpensJdbcEngineAtThePath() throws IOException {
        Path file = dir.resolve("a/b/meta.db");
        try (MetaStore store = MetaStores.open("sqlite://" + file)) {
            assertInstanceOf(JdbcMetaStore.class, store);
        }
        assertTrue(file.toFile().isFile());
    }

    @Test
    void schemeIsCaseInsensitive() throws IOException {
        try (MetaStore store = MetaStores.open("MEMORY://")) {
            assertInstanceOf(MemoryMetaStore.class, store);
        }
    }

    @Test
    void unknownSchemeNamesTheSupportedOnes() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> MetaStores.open("foo://x"));
        assertEquals("unsupported metastore URL 'foo://x': use jdbc:mariadb://host:port/db, "
                + "jdbc:postgresql://host:port/db, memory://, redis://host:port/db or sqlite:///path/meta.db",
                failure.getMessage());
    }

    @Test
    void urlWithoutSchemeIsRejected() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> MetaStores.open("/var/meta.db"));
        assertTrue(failure.getMessage().contains("sqlite:///path/meta.db"), failure.getMessage());
    }

    @Test
    void relativeSqlitePathIsRejected() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> MetaStores.open("sqlite://meta.db"));
        assertTrue(failure.getMessage().contains("absolute path"), failure.getMessage());
    }

    @Test
    void memoryUrlWithPathIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> MetaStores.open("memory://shared"));
    }

    @Test
    void passwordNeverAppearsInMessages() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> MetaStores.open("mysql://admin:s3cr%t@db:3306/meta"));
        assertFalse(failure.getMessage().contains("s3cr%t"), failure.getMessage());
        assertTrue(failure.getMessage().contains("mysql://admin:***@db:3306/meta"), failure.getMessage());
    }

    @Test
    void malformedSharedEngineUrlsAreRejectedWithoutThePassword() {
        for (String url : List.of("redis://:s3cret@host:notaport/1", "redis://:s3cret@host:6379/db1",
                "rediss://:s3cret@host/1?x=y", "jdbc:postgresql://host?user=u&password=s3cret",
                "jdbc:postgresql://u:s3cret@host/db", "jdbc:mysql://u:s3cret@host/db", "jdbc:mariadb://host?password=s3cret")) {
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> MetaStores.open(url),
                    url);
            assertFalse(failure.getMessage().contains("s3cret"), failure.getMessage());
        }
    }

    @Test
    void redactMasksOnlyThePassword() {
        assertEquals("redis://:***@host:6379/1", MetaStoreUrls.redact("redis://:pw@host:6379/1"));
        assertEquals("redis://user@host/1", MetaStoreUrls.redact("redis://user@host/1"));
        assertEquals("jdbc:postgresql://u:***@h/db", MetaStoreUrls.redact("jdbc:postgresql://u:p/a$ss@h/db"));
        assertEquals("sqlite:///a:b/c@d.db", MetaStoreUrls.redact("sqlite:///a:b/c@d.db"));
        assertEquals("jdbc:postgresql://h/db?user=u&password=***&ssl=true",
                MetaStoreUrls.redact("jdbc:postgresql://h/db?user=u&password=pw&ssl=true"));
    }
}
