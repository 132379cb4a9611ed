package io.strata.client.metrics;

import io.strata.core.concurrent.DaemonThreads;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.strata.core.conf.Options;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static java.util.Objects.requireNonNull;

/**
 * Serves {@code GET /metrics}: the registry's Prometheus text, rendered per scrape by the registry
 * itself. One thread of its own, so a slow scraper never holds a FUSE worker.
 */
public final class MetricsServer implements AutoCloseable {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Starts a server if {@code metrics_port} asks for one; fails with the address when it cannot bind. */
    public static Optional<MetricsServer> start(Options options, StrataMeters meters) throws IOException {
        int port = options.get(MetricsOptions.PORT);
        if (port == 0) {
            return Optional.empty();
        }
        return Optional.of(start(new InetSocketAddress(options.get(MetricsOptions.BIND), port), meters));
    }

    static MetricsServer start(InetSocketAddress address, StrataMeters meters) throws IOException {
        requireNonNull(meters, "meters is null");
        if (address.isUnresolved()) {
            throw new IOException("metrics_bind=" + address.getHostString() + " is not an address of this machine;"
                    + " give an IP address such as 127.0.0.1");
        }
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new IOException("cannot serve metrics on " + address.getHostString() + ":" + address.getPort()
                    + " (" + e.getMessage() + "); choose a free metrics_port", e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(DaemonThreads.named("strata-metrics-http"));
        server.setExecutor(executor);
        server.createContext("/", exchange -> respond(exchange, meters));
        server.start();
        return new MetricsServer(server, executor);
    }

    private static void respond(HttpExchange exchange, StrataMeters meters) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!path.equals("/metrics") || !(exchange.getRequestMethod().equals("GET")
                    || exchange.getRequestMethod().equals("HEAD"))) {
                byte[] body = "only GET /metrics is served here\n".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(404, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            byte[] body = meters.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** The port served: the one asked for, or the one the system chose for port 0 in tests. */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
