package io.strata.core.ufs.s3;

import io.strata.core.conf.Options;
import io.strata.core.readahead.ReadaheadConfig;
import org.junit.jupiter.api.TestInfo;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static io.strata.core.ufs.s3.S3UnderFileSystemSemanticsTest.optionsOf;

/**
 * A new volume of the shared S3 test server, named for its test and reached through a {@link
 * FaultProxy} of its own: where the tests that count or break the requests the server sees start.
 * An under storage over it has parts of S3's minimum size ({@link #PART}), so that a test's
 * multipart uploads stay a few MiB.
 */
final class ProxiedVolume implements Closeable {
    static final long PART = S3Options.MIN_PART_SIZE;

    private final S3TestServer server;
    private final URI uri;
    private final FaultProxy proxy;
    private final Path staging;

    private ProxiedVolume(S3TestServer server, URI uri, FaultProxy proxy, Path staging) {
        this.server = server;
        this.uri = uri;
        this.proxy = proxy;
        this.staging = staging;
    }

    /** A new volume for {@code test}, whose uploads stage in {@code staging}. */
    static ProxiedVolume start(S3TestServer server, TestInfo test, Path staging) throws IOException {
        URI uri = server.newVolume(test.getTestMethod().orElseThrow().getName());
        return new ProxiedVolume(server, uri, FaultProxy.start(server.endpoint()), staging);
    }

    URI uri() {
        return uri;
    }

    FaultProxy proxy() {
        return proxy;
    }

    /** The server's options with the proxy as the endpoint, and {@code overrides} (key, value, ...) on top. */
    Options options(String... overrides) {
        if (overrides.length % 2 != 0) {
            throw new IllegalArgumentException("options come in key, value pairs");
        }
        Map<String, String> text = new TreeMap<>(server.optionText(proxy.endpoint()));
        for (int i = 0; i < overrides.length; i += 2) {
            text.put(overrides[i], overrides[i + 1]);
        }
        return optionsOf(text);
    }

    /** An under storage over the proxy, with a client of its own made from {@code options} and their readahead. */
    S3UnderFileSystem open(Options options) {
        return open(S3Clients.create(options), ReadaheadConfig.from(options));
    }

    /** An under storage over {@code client} (which it closes), reading ahead as {@code readahead} says. */
    S3UnderFileSystem open(S3AsyncClient client, ReadaheadConfig readahead) {
        return new S3UnderFileSystem(S3Location.parse(uri), client, settings(staging), readahead);
    }

    /** The tests' upload settings: parts of {@link #PART}, two at once, staged in {@code staging}. */
    static S3UnderFileSystem.Settings settings(Path staging) {
        return new S3UnderFileSystem.Settings(PART, 2, staging, S3Objects.MAX_SINGLE_COPY, PART);
    }

    /** Closes the proxy; the under storages opened over it are their tests' to close. */
    @Override
    public void close() throws IOException {
        proxy.close();
    }
}
