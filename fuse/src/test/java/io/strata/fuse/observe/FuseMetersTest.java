package io.strata.fuse.observe;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FuseMetersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FuseMeters meters = new FuseMeters(registry);

    @Test
    void preparedOperationsAreMeteredFromZeroAndCountIntoTheSameTimer() {
        meters.prepare(List.of("lookup", "getattr"));

        assertThat(timer("lookup").count()).isZero();
        assertThat(timer("getattr").count()).isZero();

        meters.served("lookup", 0, 1_000);
        meters.served("lookup", 2, 1_000);

        assertThat(timer("lookup").count()).isEqualTo(2);
        assertThat(registry.find(FuseMeters.OPS).timers()).hasSize(2);
    }

    private Timer timer(String op) {
        return registry.get(FuseMeters.OPS).tag("op", op).timer();
    }
}
