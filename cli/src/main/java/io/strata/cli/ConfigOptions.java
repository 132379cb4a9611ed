package io.strata.cli;

import io.strata.core.conf.OptionException;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The option sources of a command ({@code -o} and {@code --conf}), bound with the environment in
 * the documented precedence: {@code -o} over {@code STRATA_*} variables over the file over defaults.
 */
final class ConfigOptions {
    static final String DEFAULT_CONF = "conf/strata.properties";

    private static final String DASH_O = "-o";
    private static final String DASH_O_LABEL = "KEY[=VALUE][,...]";
    private static final String DASH_O_DESCRIPTION = "Set options, mount(8) style: -o attr_timeout=5,kernel_cache."
            + " Repeatable. 'strata conf' lists them.";
    private static final String CONF = "--conf";
    private static final String CONF_LABEL = "FILE";
    private static final String CONF_DESCRIPTION = "Options file (key=value lines). Default: $STRATA_HOME/"
            + DEFAULT_CONF + " if present.";

    @Option(names = DASH_O, paramLabel = DASH_O_LABEL, description = DASH_O_DESCRIPTION)
    List<String> dashO = new ArrayList<>();

    @Option(names = CONF, paramLabel = CONF_LABEL, description = CONF_DESCRIPTION)
    Path conf;

    /** Declares {@code -o} and {@code --conf} on a command declared in code, bound to this object. */
    void declareOn(CommandSpec spec) {
        spec.addOption(FieldBinding.bind(OptionSpec.builder(DASH_O), () -> dashO, (List<String> value) -> dashO = value)
                .type(List.class).auxiliaryTypes(String.class).initialValue(List.of()).paramLabel(DASH_O_LABEL)
                .description(DASH_O_DESCRIPTION).build());
        spec.addOption(FieldBinding.bind(OptionSpec.builder(CONF), () -> conf, (Path value) -> conf = value)
                .type(Path.class).paramLabel(CONF_LABEL).description(CONF_DESCRIPTION).build());
    }

    /** Binds every source; a bad key or value is an {@link OptionException} naming its source when not -o. */
    Options bind(OptionRegistry registry, Map<String, String> environment) {
        OptionsLoader loader = new OptionsLoader(registry);
        Optional<Path> file = confFile(environment);
        file.ifPresent(path -> from("in " + path, () -> loader.file(path)));
        // One variable at a time, so that an error can name the variable rather than the key.
        new TreeMap<>(environment).forEach((name, value) -> {
            if (name.startsWith(OptionsLoader.ENV_PREFIX)) {
                from("in environment variable " + name, () -> loader.environment(Map.of(name, value)));
            }
        });
        loader.commandLine(dashO);
        return loader.build();
    }

    /** {@code --conf FILE} (which must exist), else the default file when it exists. */
    Optional<Path> confFile(Map<String, String> environment) {
        if (conf != null) {
            Path path = conf.toAbsolutePath().normalize();
            if (!Files.isRegularFile(path)) {
                throw CliException.badInput("configuration file " + path + " not found; check the path given to --conf");
            }
            return Optional.of(path);
        }
        String home = environment.get(StrataCommand.HOME_ENV);
        if (home == null || home.isBlank()) {
            return Optional.empty();
        }
        Path path = Path.of(home).resolve(DEFAULT_CONF).toAbsolutePath().normalize();
        return Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
    }

    private static void from(String source, Runnable binding) {
        try {
            binding.run();
        } catch (OptionException e) {
            throw new OptionException(source + ": " + e.getMessage());
        }
    }
}
