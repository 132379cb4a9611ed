package io.strata.meta;

import java.io.IOException;
import java.util.Optional;

/**
 * The format version every engine keeps in a volume's settings, and the one check of it they
 * share: a volume of a newer format is refused, as is one without the setting.
 */
public final class VolumeFormat {
    /**
     * The setting every engine keeps the volume's format version under. It is written when a
     * volume is created and cannot be changed with {@link MetaStore#putSetting}.
     */
    public static final String VERSION_KEY = "format_version";

    /** The format version this build writes; an engine refuses a volume with a newer one. */
    public static final int VERSION = 1;

    private VolumeFormat() {}

    /**
     * Checks the format version stored in the volume at {@code where} (for messages: never with
     * a password).
     *
     * @throws IOException naming what is wrong: no version (not a Strata volume), a malformed,
     *     newer or older one
     */
    public static void check(Optional<String> stored, String where) throws IOException {
        if (stored.isEmpty()) {
            throw new IOException(where + " has no " + VERSION_KEY + " setting: it is not a Strata metastore");
        }
        checkVersion("format version", stored.get(), VERSION, where, "");
    }

    /**
     * Refuses a version number read from a volume other than the one this build reads: a malformed
     * one, a newer one (a newer Strata opens it), an older one ({@code ifOlder} says what to do).
     * Every versioned part of a volume (its format, an engine's own schema) is checked with it.
     *
     * @param what the version's name in messages ("format version", "Redis schema")
     * @param where the volume, for messages: never with a password
     */
    public static void checkVersion(String what, String stored, int supported, String where, String ifOlder)
            throws IOException {
        int version;
        try {
            version = Integer.parseInt(stored);
        } catch (NumberFormatException e) {
            throw new IOException(where + " has a malformed " + what + " '" + stored + "'", e);
        }
        if (version > supported) {
            throw new IOException(where + " has " + what + " " + version + ", newer than " + what + " " + supported
                    + " that this Strata reads: open it with a newer Strata");
        }
        if (version < supported) {
            throw new IOException(where + " has " + what + " " + version + ", which this Strata cannot upgrade" + ifOlder);
        }
    }

    /** Refuses to let {@link MetaStore#putSetting} change the version, as every engine must. */
    public static void checkWritable(String key) {
        if (key.equals(VERSION_KEY)) {
            throw new IllegalArgumentException("setting " + key + " is kept by the metastore itself");
        }
    }
}
