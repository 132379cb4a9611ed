package io.strata.client.metrics;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MetricsServerTest {
    private final StrataMeters meters = StrataMeters.create();

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesTheRegistryInPrometheusTextFormat() throws Exception {
        meters.registry().counter("strata.test.events").increment(3);
        try (MetricsServer server = MetricsServer.start(new InetSocketAddress("127.0.0.1", 0), meters)) {
            HttpResponse<String> response = get(server.port(), "/metrics");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue(MetricsServer.CONTENT_TYPE);
            assertThat(response.body()).contains("strata_test_events_total 3.0");
            assertThat(response.body()).contains("jvm_memory_used_bytes{");
            assertThat(response.body()).contains("strata_process_resident_memory_bytes ");
        }
    }

    @Test
    void answersOtherPathsWithNotFound() throws Exception {
        try (MetricsServer server = MetricsServer.start(new InetSocketAddress("127.0.0.1", 0), meters)) {
            assertThat(get(server.port(), "/").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void aPortInUseIsRefusedWithTheAddressAndWhatToDo() throws Exception {
        try (MetricsServer first = MetricsServer.start(new InetSocketAddress("127.0.0.1", 0), meters)) {
            assertThatThrownBy(() -> MetricsServer.start(new InetSocketAddress("127.0.0.1", first.port()), meters))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("cannot serve metrics on 127.0.0.1:" + first.port())
                    .hasMessageContaining("choose a free metrics_port");
        }
    }
}
