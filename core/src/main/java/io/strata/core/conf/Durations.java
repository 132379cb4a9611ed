package io.strata.core.conf;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints durations in the forms options use: {@code 600} (seconds), {@code 1.5s}, {@code 10min}. */
public final class Durations {
    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|sec|m|min|h|d)?");

    private Durations() {}

    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a duration such as 1.5 (seconds), 500ms, 30s, 10min or 1h");
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double nanosPerUnit = switch (unit) {
            case "ns" -> 1;
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "s", "sec" -> 1e9;
            case "m", "min" -> 60e9;
            case "h" -> 3600e9;
            case "d" -> 86400e9;
            default -> throw new AssertionError(unit);
        };
        double nanos = value * nanosPerUnit;
        if (nanos >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("duration too long");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    /** Seconds as a decimal, the form libfuse's timeouts take ({@code 1.0}, {@code 0.25}). */
    public static String toSeconds(Duration duration) {
        return java.math.BigDecimal.valueOf(duration.toNanos(), 9).stripTrailingZeros().toPlainString();
    }
}
