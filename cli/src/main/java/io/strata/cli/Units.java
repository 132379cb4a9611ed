package io.strata.cli;

import java.util.Locale;

/** Sizes and shares as the commands print them: {@code 1.5 GiB}, {@code  42.0%}. */
public final class Units {
    private Units() {}

    /** Bytes in the largest binary unit below them, one decimal ({@code 512 B}, {@code 1.5 GiB}). */
    public static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = n;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /** {@code part} of {@code whole} as a percentage, five wide (all of nothing is 100 %). */
    public static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%5.1f%%", whole == 0 ? 100.0 : 100.0 * part / whole);
    }
}
