package io.strata.meta;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Opens a {@link MetaStore} engine chosen by the scheme of a metastore URL, from the engines on
 * the class path ({@link MetaStoreEngine}, found once with {@link ServiceLoader}).
 */
public final class MetaStores {
    private static final List<MetaStoreEngine> ENGINES = load();
    private static final Map<String, MetaStoreEngine> BY_SCHEME = bySchemes(ENGINES);

    private MetaStores() {}

    /**
     * Opens the metastore at {@code url} with the engine its scheme names, for example
     * {@code memory://} (a new, empty, private volume), {@code sqlite:///absolute/path/meta.db},
     * {@code jdbc:postgresql://host[:port]/db[?user=U&password=P]},
     * {@code jdbc:mariadb://host[:port]/db[?user=U&password=P]} (or {@code jdbc:mysql://}) or
     * {@code redis[s]://[[user]:password@]host[:port][/db]}; a shared engine formats an empty
     * database as a new volume. Without a password in the URL, the shared engines take it from
     * {@value MetaStoreUrls#PASSWORD_ENV}.
     *
     * @throws IllegalArgumentException for a malformed URL or an unsupported scheme
     * @throws IOException if the engine cannot be opened
     */
    public static MetaStore open(String url) throws IOException {
        requireNonNull(url, "url is null");
        MetaStoreEngine engine = BY_SCHEME.get(MetaStoreUrls.scheme(url));
        if (engine == null) {
            throw new IllegalArgumentException("unsupported metastore URL '" + MetaStoreUrls.redact(url) + "': "
                    + supported());
        }
        return engine.open(url);
    }

    /** Whether an engine on the class path opens URLs of {@code url}'s scheme (the URL may still be malformed). */
    public static boolean supports(String url) {
        return BY_SCHEME.containsKey(MetaStoreUrls.scheme(url));
    }

    /** The engines on the class path, ordered by their URL's shape. */
    public static List<MetaStoreEngine> engines() {
        return ENGINES;
    }

    /** "use a, b or c": the URL shapes of every engine, for messages. */
    static String supported() {
        List<String> usages = ENGINES.stream().map(MetaStoreEngine::usage).toList();
        if (usages.size() < 2) {
            return "use " + String.join("", usages);
        }
        return "use " + usages.subList(0, usages.size() - 1).stream().collect(Collectors.joining(", "))
                + " or " + usages.get(usages.size() - 1);
    }

    private static List<MetaStoreEngine> load() {
        List<MetaStoreEngine> engines = new ArrayList<>();
        ServiceLoader.load(MetaStoreEngine.class, MetaStores.class.getClassLoader()).forEach(engines::add);
        engines.sort(Comparator.comparing(MetaStoreEngine::usage));
        return List.copyOf(engines);
    }

    private static Map<String, MetaStoreEngine> bySchemes(List<MetaStoreEngine> engines) {
        Map<String, MetaStoreEngine> byScheme = new LinkedHashMap<>();
        for (MetaStoreEngine engine : engines) {
            for (String scheme : engine.schemes()) {
                MetaStoreEngine previous = byScheme.putIfAbsent(scheme, engine);
                if (previous != null) {
                    throw new IllegalStateException("metastore URL scheme " + scheme + " is claimed by "
                            + previous.getClass().getName() + " and " + engine.getClass().getName());
                }
            }
        }
        return Map.copyOf(byScheme);
    }
}
