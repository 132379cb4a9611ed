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

    private HadoopOptions() {}

    /** The options of volume {@code volume}; an {@link OptionException} names the bad key. */
    static Options bind(Configuration conf, String volume, OptionRegistry registry, Map<String, String> environment)
            throws IOException {
        OptionsLoader loader = new OptionsLoader(registry);
        loader.environment(environment);
        for (Option<?> option : registry.all()) {
            for (String name : names(option)) {
                setFrom(conf, PREFIX + name, name, option, loader);
            }
        }
        for (Option<?> option : registry.all()) {
            for (String name : names(option)) {
                setFrom(conf, PREFIX + volume + "." + name, name, option, loader);
            }
        }
        return loader.build();
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
