package io.strata.cli;

import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.function.Consumer;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Binds an option or parameter of a command declared in code to a field of the command object,
 * as picocli binds an annotated field, but through two lambdas instead of reflection.
 */
final class FieldBinding<V> implements IGetter, ISetter {
    private final Supplier<V> getter;
    private final Consumer<V> setter;

    private FieldBinding(Supplier<V> getter, Consumer<V> setter) {
        this.getter = requireNonNull(getter, "getter is null");
        this.setter = requireNonNull(setter, "setter is null");
    }

    /** {@code option}, reading and writing its value through {@code getter} and {@code setter}. */
    static <V> OptionSpec.Builder bind(OptionSpec.Builder option, Supplier<V> getter, Consumer<V> setter) {
        FieldBinding<V> binding = new FieldBinding<>(getter, setter);
        return option.getter(binding).setter(binding);
    }

    /** {@code parameter}, reading and writing its value through {@code getter} and {@code setter}. */
    static <V> PositionalParamSpec.Builder bind(PositionalParamSpec.Builder parameter, Supplier<V> getter,
                                                Consumer<V> setter) {
        FieldBinding<V> binding = new FieldBinding<>(getter, setter);
        return parameter.getter(binding).setter(binding);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get() {
        return (T) getter.get();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T set(T value) {
        T previous = get();
        setter.accept((V) value);
        return previous;
    }
}
