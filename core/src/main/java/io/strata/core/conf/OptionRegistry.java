package io.strata.core.conf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/** Every known option, by key and alias; unknown keys get the closest known key as a suggestion. */
public final class OptionRegistry {
    private final List<OptionGroup> groups;
    private final Map<String, Option<?>> byName = new LinkedHashMap<>();

    public OptionRegistry(List<OptionGroup> groups) {
        this.groups = List.copyOf(groups);
        for (OptionGroup group : this.groups) {
            for (Option<?> option : group.options()) {
                register(option.key(), option);
                option.aliases().forEach(alias -> register(alias, option));
            }
        }
    }

    /** The registry of every group on the class path. */
    public static OptionRegistry load() {
        List<OptionGroup> groups = new ArrayList<>();
        ServiceLoader.load(OptionGroup.class, OptionRegistry.class.getClassLoader()).forEach(groups::add);
        groups.sort(Comparator.comparing(OptionGroup::title));
        return new OptionRegistry(groups);
    }

    private void register(String name, Option<?> option) {
        Option<?> previous = byName.putIfAbsent(name, option);
        if (previous != null && previous != option) {
            throw new IllegalStateException("option name declared twice: " + name);
        }
    }

    public List<OptionGroup> groups() {
        return groups;
    }

    public List<Option<?>> all() {
        return groups.stream().flatMap(g -> g.options().stream()).toList();
    }

    public Optional<Option<?>> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The option named {@code name}, or an {@link OptionException} that suggests the closest key. */
    public Option<?> require(String name) {
        return find(name).orElseThrow(() -> new OptionException(unknownMessage(name)));
    }

    private String unknownMessage(String name) {
        if (byName.isEmpty()) {
            return String.format("unknown option '%s' (run 'strata conf' to list every option)", name);
        }
        String closest = Collections.min(byName.keySet(), Comparator.comparingInt(k -> editDistance(name, k)));
        return String.format("unknown option '%s'; did you mean '%s'? (run 'strata conf' to list every option)",
                name, closest);
    }

    /** Levenshtein distance: small enough to write here rather than pull in a text library. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
