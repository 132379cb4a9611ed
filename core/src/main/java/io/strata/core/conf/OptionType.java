package io.strata.core.conf;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * How an option's text becomes a typed value and back.
 *
 * @param form what a user should write, shown in errors and in {@code strata conf}
 */
public record OptionType<T>(String form, Function<String, T> parser, Function<T, String> printer) {
    public OptionType {
        requireNonNull(form, "form is null");
        requireNonNull(parser, "parser is null");
        requireNonNull(printer, "printer is null");
    }

    public static final OptionType<String> STRING = new OptionType<>("text", s -> s, s -> s);

    public static final OptionType<Boolean> BOOLEAN = new OptionType<>("true|false", OptionType::parseBoolean,
            String::valueOf);

    public static final OptionType<Integer> INT = new OptionType<>("an integer",
            s -> Integer.parseInt(s.trim()), String::valueOf);

    public static final OptionType<DataSize> SIZE = new OptionType<>("a size (4096, 512KB, 1MiB, 5GB)",
            DataSize::parse, DataSize::toString);

    public static final OptionType<Duration> DURATION = new OptionType<>(
            "a duration (1.5 = seconds, 500ms, 30s, 10min)", Durations::parse, d -> Durations.toSeconds(d) + "s");

    /** An unsigned integer written in octal, like a umask ({@code 022}). */
    public static final OptionType<Integer> OCTAL = new OptionType<>("an octal number (022)",
            s -> Integer.parseUnsignedInt(s.trim(), 8), i -> "0" + Integer.toOctalString(i));

    public T parse(String text) {
        return parser.apply(text);
    }

    public String print(T value) {
        return printer.apply(value);
    }

    /** FUSE flag options are given bare ({@code -o kernel_cache}); bare means true. */
    private static Boolean parseBoolean(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "", "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new IllegalArgumentException("expected true or false");
        };
    }
}
