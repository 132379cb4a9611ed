package io.strata.client;

import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;

import java.util.List;

/** Options of a volume: where its namespace lives and how it follows the under storage. */
public final class VolumeOptions implements OptionGroup {
    public static final Option<String> META = Option.builder("meta", OptionType.STRING)
            .doc("Metastore URL: sqlite:///path/meta.db or memory://. Default: an SQLite file per source"
                    + " under state_dir, printed at mount.")
            .check(VolumeOptions::isMetaUrl, "a metastore URL: sqlite:///absolute/path.db or memory://")
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

    @Override
    public String title() {
        return "Volume";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(META, STATE_DIR, READ_ONLY);
    }

    private static boolean isMetaUrl(String url) {
        return url.equals("memory://") || url.startsWith("sqlite:///");
    }

    private static String defaultStateDir() {
        String home = System.getProperty("user.home", "/root");
        return "root".equals(System.getProperty("user.name")) ? "/var/lib/strata" : home + "/.strata";
    }
}
