package io.strata.core.conf;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number of bytes, written as {@code 512MB}, {@code 1MiB}, {@code 5GB} or a plain byte count.
 *
 * <p>Units are binary whatever their spelling ({@code MB} = {@code MiB} = 2^20), as in Alluxio
 * and JuiceFS configuration, so that page and buffer sizes stay powers of two.
 */
public record DataSize(long bytes) implements Comparable<DataSize> {
    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgtp]?)(i?b?)");

    public DataSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("size is negative: " + bytes);
        }
    }

    public static DataSize ofBytes(long bytes) {
        return new DataSize(bytes);
    }

    public static DataSize ofKiB(long n) {
        return new DataSize(Math.multiplyExact(n, 1L << 10));
    }

    public static DataSize ofMiB(long n) {
        return new DataSize(Math.multiplyExact(n, 1L << 20));
    }

    public static DataSize ofGiB(long n) {
        return new DataSize(Math.multiplyExact(n, 1L << 30));
    }

    /** Parses a size; throws {@link IllegalArgumentException} naming the accepted form. */
    public static DataSize parse(String text) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches() || (m.group(2).isEmpty() && m.group(3).startsWith("i"))) {
            throw new IllegalArgumentException("expected a size such as 4096, 512KB, 1MiB or 5GB");
        }
        int shift = switch (m.group(2)) {
            case "" -> 0;
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            case "p" -> 50;
            default -> throw new AssertionError(m.group(2));
        };
        double value = Double.parseDouble(m.group(1)) * Math.pow(2, shift);
        if (value >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("size too large");
        }
        return new DataSize((long) value);
    }

    /** The shortest exact form: {@code 1MiB}, {@code 300MiB}, {@code 4097B}. */
    @Override
    public String toString() {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        long value = bytes;
        int unit = 0;
        while (value != 0 && value % 1024 == 0 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return value + units[unit];
    }

    @Override
    public int compareTo(DataSize other) {
        return Long.compare(bytes, other.bytes);
    }
}
