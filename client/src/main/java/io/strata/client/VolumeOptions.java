package io.strata.client;

import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;
import io.strata.meta.MetaStoreEngine;
import io.strata.meta.MetaStores;

import java.time.Duration;
import java.util.List;

/** Options of a volume: where its namespace lives and how it follows the under storage. */
public final class VolumeOptions implements OptionGroup {
    public static final Option<String> META = Option.builder("meta", OptionType.STRING)
            .doc("Metastore URL: sqlite:///path/meta.db, memory://, jdbc:postgresql://host:port/db,"
                    + " jdbc:mariadb://host:port/db (jdbc:mysql:// too) or redis://host:port/db (rediss:// for TLS);"
                    + " a shared one lets many clients mount one volume. Without a password in the URL, PostgreSQL,"
                    + " MariaDB and Redis take it from STRATA_META_PASSWORD."
                    + " Default: an SQLite file per source under state_dir, printed at mount.")
            .check(MetaStores::supports, "a metastore URL: " + String.join(", ",
                    MetaStores.engines().stream().map(MetaStoreEngine::usage).toList()))
            .build();

    public static final Option<String> STATE_DIR = Option.builder("state_dir", OptionType.STRING)
            .defaultValue(defaultStateDir())
            .doc("Directory for the default metastores, daemon logs and pid files.")
            .check(s -> s.startsWith("/"), "an absolute path")
            .build();

    public static final Option<Boolean> READ_ONLY = Option.builder("ro", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Mount read-only: every change fails with EROFS.")
            .build();

    public static final Option<Duration> METADATA_SYNC_INTERVAL = Option.builder("metadata_sync_interval",
                    OptionType.DURATION)
            .doc("List a directory from the under storage again when its last listing is older than this,"
                    + " to show changes other tools made there; 0 = on every access. Default (unset): list"
                    + " each directory once, on first access.")
            .check(d -> !d.isNegative(), "a non-negative duration")
            .build();

    public static final Option<Duration> SESSION_EXPIRE = Option.builder("session_expire", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(60))
            .doc("A client that sent no heartbeat for this long is gone: another client of the volume then"
                    + " removes the unlinked files it kept open. Heartbeats go 4 times per period.")
            .check(d -> d.toMillis() >= 400, "at least 400ms")
            .build();

    @Override
    public String title() {
        return "Volume";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(META, STATE_DIR, READ_ONLY, METADATA_SYNC_INTERVAL, SESSION_EXPIRE);
    }

    private static String defaultStateDir() {
        String home = System.getProperty("user.home", "/root");
        return "root".equals(System.getProperty("user.name")) ? "/var/lib/strata" : home + "/.strata";
    }
}
