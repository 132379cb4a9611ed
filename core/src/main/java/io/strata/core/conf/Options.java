package io.strata.core.conf;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The frozen, typed option values of one mount: parsed once at the boundary, then trusted.
 *
 * <p>Also remembers where each value came from, so a mount can log its effective configuration
 * (secrets masked).
 */
public final class Options {
    private final Map<Option<?>, Object> values;
    private final Map<Option<?>, String> sources;

    Options(Map<Option<?>, Object> values, Map<Option<?>, String> sources) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.sources = Collections.unmodifiableMap(new LinkedHashMap<>(sources));
    }

    /** Defaults only. */
    public static Options defaults() {
        return new Options(Map.of(), Map.of());
    }

    /** The value set by the user, or the option's default (null when unset by default). */
    @SuppressWarnings("unchecked")
    public <T> T get(Option<T> option) {
        requireNonNull(option, "option is null");
        Object value = values.get(option);
        return value != null ? (T) value : option.defaultValue();
    }

    public boolean isSet(Option<?> option) {
        return values.containsKey(option);
    }

    /** A copy with {@code option} set to {@code value}; for programmatic mounts and tests. */
    public <T> Options with(Option<T> option, T value) {
        Map<Option<?>, Object> copy = new LinkedHashMap<>(values);
        copy.put(option, requireNonNull(value, "value is null"));
        Map<Option<?>, String> copySources = new LinkedHashMap<>(sources);
        copySources.put(option, "code");
        return new Options(copy, copySources);
    }

    /** The explicitly set options, as {@code key=value (source)} lines, secrets masked. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        values.forEach((option, value) -> out.append(option.key()).append('=')
                .append(option.secret() ? "****" : print(option, value))
                .append(" (").append(sources.get(option)).append(")\n"));
        return out.toString();
    }

    /** The explicitly set options as key/value text, secrets included: for handing to a daemon. */
    public Map<String, String> toText() {
        Map<String, String> text = new LinkedHashMap<>();
        values.forEach((option, value) -> text.put(option.key(), print(option, value)));
        return text;
    }

    @SuppressWarnings("unchecked")
    private static <T> String print(Option<T> option, Object value) {
        return option.type().print((T) value);
    }
}
