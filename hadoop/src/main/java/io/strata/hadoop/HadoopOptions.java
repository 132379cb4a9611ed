package io.strata.hadoop;

import io.strata.client.VolumeOptions;
import io.strata.core.conf.Option;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A volume's options from a Hadoop {@link Configuration}, in JuiceFS's convention: every option
 * of {@code strata mount -o} under its own name prefixed {@code fs.strata.}
 * ({@code fs.strata.meta}, {@code fs.strata.s3.endpoint}, {@code fs.strata.local_data_cache}), for
 * any volume, or prefixed {@code fs.strata.NAME.} for the volume {@code strata://NAME} alone,
 * which wins. {@code STRATA_*} environment variables apply below both, as for a mount.
 *
 * <p>Secret options (the S3 secret key, the metastore URL which may hold a password) are read with
 * {@link Configuration#getPassword}, so they can live in a Hadoop credential provider
 * ({@code hadoop.security.credential.provider.path}) rather than in the configuration; their
 * values never appear in messages.
 */
final class HadoopOptions {
    static final String PREFIX = "fs.strata.";
    /** Keys under the prefix that are Hadoop's or this adapter's, not mount options. */
    private static final Set<String> HADOOP_KEYS = Set.of("impl", "impl.disable.cache", "block.size",
            "vectored.read.min.seek.size", "vectored.read.max.merged.size", "vectored.active.ranged.reads");

    private HadoopOptions() {}

    /** The options of volume {@code volume}; an {@link OptionException} names the bad key. */
    static Options bind(Configuration conf, String volume, OptionRegistry registry, Map<String, String> environment)
            throws IOException {
        OptionsLoader loader = new OptionsLoader(registry);
        loader.environment(environment);
        // any volume's keys first, so that this volume's, set after them, win
        for (String prefix : List.of(PREFIX, PREFIX + volume + ".")) {
            for (Option<?> option : registry.all()) {
                for (String name : names(option)) {
                    setFrom(conf, prefix + name, name, option, loader);
                }
            }
        }
        return loader.build();
    }

    /**
     * The keys under {@code fs.strata.} that name no option, for any volume (a typo such as
     * {@code fs.strata.s3.endpont}, which would otherwise be ignored without a word).
     */
    static List<String> unknownKeys(Configuration conf, OptionRegistry registry) {
        return conf.getPropsWithPrefix(PREFIX).keySet().stream()
                .filter(key -> !HADOOP_KEYS.contains(key) && !namesOption(key, registry))
                .map(key -> PREFIX + key).sorted().toList();
    }

    /** {@code KEY} or {@code NAME.KEY} for an option's key or alias. */
    private static boolean namesOption(String key, OptionRegistry registry) {
        if (registry.find(key).isPresent()) {
            return true;
        }
        for (int dot = key.indexOf('.'); dot >= 0; dot = key.indexOf('.', dot + 1)) {
            String rest = key.substring(dot + 1);
            if (registry.find(rest).isPresent() || HADOOP_KEYS.contains(rest)) {
                return true;
            }
        }
        return false;
    }

    /** The metastore URL's key for {@code volume}: the one set, per volume first; for messages. */
    static String metaKey(Configuration conf, String volume) {
        String perVolume = PREFIX + volume + "." + VolumeOptions.META.key();
        return conf.get(perVolume) != null ? perVolume : PREFIX + VolumeOptions.META.key();
    }

    private static List<String> names(Option<?> option) {
        List<String> names = new ArrayList<>();
        names.add(option.key());
        names.addAll(option.aliases());
        return names;
    }

    private static void setFrom(Configuration conf, String key, String name, Option<?> option, OptionsLoader loader)
            throws IOException {
        String value;
        if (option.secret() || option == VolumeOptions.META) {
            char[] password = conf.getPassword(key);
            value = password == null ? null : new String(password);
        } else {
            value = conf.getTrimmed(key);
        }
        if (value == null) {
            return;
        }
        try {
            loader.set(name, value, key);
        } catch (OptionException e) {
            throw new OptionException("in Hadoop configuration " + key + ": " + e.getMessage());
        }
    }
}
