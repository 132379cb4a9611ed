package io.strata.core.conf;

import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * One user-facing setting: its key, type, default, one-line doc and validation.
 *
 * <p>Options are declared as constants next to the subsystem they configure and reach the
 * registry through an {@link OptionGroup}. A null default means "unset" (the subsystem decides,
 * and its doc says what happens).
 */
public final class Option<T> {
    private final String key;
    private final List<String> aliases;
    private final OptionType<T> type;
    private final T defaultValue;
    private final String doc;
    private final Predicate<T> check;
    private final String checkDoc;
    private final boolean secret;
    private final boolean listValued;

    private Option(Builder<T> b) {
        this.key = requireNonNull(b.key, "key is null");
        this.aliases = List.copyOf(b.aliases);
        this.type = requireNonNull(b.type, "type is null");
        this.defaultValue = b.defaultValue;
        this.doc = requireNonNull(b.doc, "doc is null");
        this.check = b.check;
        this.checkDoc = b.checkDoc;
        this.secret = b.secret;
        this.listValued = b.listValued;
        if (defaultValue != null && !check.test(defaultValue)) {
            throw new IllegalArgumentException("default of " + key + " fails its own check: " + defaultValue);
        }
    }

    public static <T> Builder<T> builder(String key, OptionType<T> type) {
        return new Builder<>(key, type);
    }

    public String key() {
        return key;
    }

    public List<String> aliases() {
        return aliases;
    }

    public OptionType<T> type() {
        return type;
    }

    /** The default, or null when the option is unset by default. */
    public T defaultValue() {
        return defaultValue;
    }

    public String doc() {
        return doc;
    }

    /** Secrets are never printed: not by {@code strata conf}, not in logs or errors. */
    public boolean secret() {
        return secret;
    }

    /**
     * Whether the value is a comma-separated list: on the command line, {@code -o k=a,b} then
     * gives {@code k} the value {@code a,b} rather than taking {@code b} as a flag of its own.
     */
    public boolean listValued() {
        return listValued;
    }

    /** The default as a user would write it, or "(unset)". */
    public String printDefault() {
        return defaultValue == null ? "(unset)" : type.print(defaultValue);
    }

    /** Parses and validates a user's text; the message names the key, the value and the form. */
    public T parse(String text) {
        T value;
        try {
            value = type.parse(text);
        } catch (RuntimeException e) {
            throw new OptionException(String.format("bad value for option %s: '%s' (%s)", key, shown(text),
                    parseFailure(e)));
        }
        if (!check.test(value)) {
            throw new OptionException(String.format("bad value for option %s: '%s' (expected %s)",
                    key, shown(text), checkDoc));
        }
        return value;
    }

    /**
     * What the parser said, when it says what to write ("expected a size such as ..."); otherwise
     * the type's form. A parser's other messages may quote the text, so a secret gets only the form.
     */
    private String parseFailure(RuntimeException e) {
        String message = e.getMessage();
        if (secret || message == null) {
            return "expected " + type.form();
        }
        return message.startsWith("expected") ? message : message + "; expected " + type.form();
    }

    private String shown(String text) {
        return secret ? "****" : text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Option<?> other && other.key.equals(key);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key);
    }

    @Override
    public String toString() {
        return key;
    }

    /** Builds an {@link Option}; {@link #build()} checks the default against the validation. */
    public static final class Builder<T> {
        private final String key;
        private final OptionType<T> type;
        private List<String> aliases = List.of();
        private T defaultValue;
        private String doc = "";
        private Predicate<T> check = v -> true;
        private String checkDoc = "";
        private boolean secret;
        private boolean listValued;

        private Builder(String key, OptionType<T> type) {
            this.key = key;
            this.type = type;
        }

        public Builder<T> defaultValue(T value) {
            this.defaultValue = value;
            return this;
        }

        public Builder<T> doc(String doc) {
            this.doc = doc;
            return this;
        }

        public Builder<T> aliases(String... aliases) {
            this.aliases = List.of(aliases);
            return this;
        }

        /** A validation beyond the type, and what a valid value looks like (for the error). */
        public Builder<T> check(Predicate<T> check, String expected) {
            this.check = requireNonNull(check, "check is null");
            this.checkDoc = requireNonNull(expected, "expected is null");
            return this;
        }

        public Builder<T> secret() {
            this.secret = true;
            return this;
        }

        /** The value is a comma-separated list (see {@link Option#listValued()}). */
        public Builder<T> listValued() {
            this.listValued = true;
            return this;
        }

        public Option<T> build() {
            return new Option<>(this);
        }
    }
}
