package io.strata.core.conf;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import static java.util.Objects.requireNonNull;

/**
 * Binds option text from its sources into {@link Options}.
 *
 * <p>Precedence, highest first: {@code -o} on the command line, then environment variables
 * ({@code STRATA_<KEY>}, the key upper-cased with dots as underscores, e.g.
 * {@code STRATA_ATTR_TIMEOUT}), then the properties file, then each option's default. Every key
 * and value is checked here; nothing downstream re-validates.
 */
public final class OptionsLoader {
    public static final String ENV_PREFIX = "STRATA_";

    private final OptionRegistry registry;
    private final Map<Option<?>, Object> values = new LinkedHashMap<>();
    private final Map<Option<?>, String> sources = new LinkedHashMap<>();

    public OptionsLoader(OptionRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
    }

    /** Reads a properties file; a missing file is an error naming the path. */
    public OptionsLoader file(Path path) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            throw new OptionException("configuration file not found: " + path);
        } catch (IOException e) {
            throw new OptionException("cannot read configuration file " + path + ": " + e.getMessage());
        }
        for (String key : properties.stringPropertyNames()) {
            set(key, properties.getProperty(key), path.toString());
        }
        return this;
    }

    /** Takes every {@code STRATA_*} variable that names a known option; others are ignored. */
    public OptionsLoader environment(Map<String, String> env) {
        for (Option<?> option : registry.all()) {
            List<String> names = new ArrayList<>();
            names.add(option.key());
            names.addAll(option.aliases());
            for (String name : names) {
                String value = env.get(envName(name));
                if (value != null) {
                    set(name, value, "env " + envName(name));
                }
            }
        }
        return this;
    }

    /**
     * Takes {@code -o} arguments: each a comma-separated list of {@code key=value} or bare
     * {@code flag} items (a bare flag means true, as with mount(8) options).
     * A list-valued option takes the items after it that are not option names as more values:
     * {@code -o local_data_cache=/a,/b,kernel_cache} sets both directories and the flag.
     */
    public OptionsLoader commandLine(List<String> dashOArguments) {
        for (String argument : dashOArguments) {
            Map<String, String> items = new LinkedHashMap<>();
            String listKey = null;
            for (String item : argument.split(",")) {
                if (item.isBlank()) {
                    continue;
                }
                int eq = item.indexOf('=');
                String key = (eq < 0 ? item : item.substring(0, eq)).trim();
                if (eq < 0 && listKey != null && registry.find(key).isEmpty()) {
                    items.merge(listKey, item, (value, more) -> value + "," + more); // k=a,b: b continues k's list
                    continue;
                }
                items.put(key, eq < 0 ? "" : item.substring(eq + 1));
                listKey = eq >= 0 && registry.find(key).map(Option::listValued).orElse(false) ? key : null;
            }
            items.forEach((key, value) -> set(key, value, "-o"));
        }
        return this;
    }

    /** Sets one key from code or a test, with the same checks as the other sources. */
    public OptionsLoader set(String key, String value, String source) {
        Option<?> option = registry.require(key);
        values.put(option, option.parse(value));
        sources.put(option, source);
        return this;
    }

    public Options build() {
        return new Options(values, sources);
    }

    public static String envName(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_');
    }
}
