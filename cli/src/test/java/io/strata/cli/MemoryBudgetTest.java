package io.strata.cli;

import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryBudgetTest {
    static final long MIB = 1 << 20;

    static Options options(String... dashO) {
        return new OptionsLoader(OptionRegistry.load()).commandLine(List.of(dashO)).build();
    }

    static MemoryBudget budget(long heap, long direct, String... dashO) {
        return budget(false, heap, direct, dashO);
    }

    static MemoryBudget budget(boolean s3, long heap, long direct, String... dashO) {
        MemoryBudget parts = MemoryBudget.of(options(dashO), s3);
        return new MemoryBudget(heap, direct, parts.memoryTier(), parts.fuseBuffers(), parts.readahead(),
                parts.s3ReadBuffers());
    }

    @Test
    void theDefaultsFitTheLimitsBinStrataGivesAMount() {
        MemoryBudget defaults = budget(320 * MIB, 256 * MIB);
        assertThat(defaults.problem()).isNull();
        assertThat(defaults.memoryTier()).isEqualTo(64 * MIB);
        assertThat(defaults.fuseBuffers()).isEqualTo(16 * 2 * MIB);
        assertThat(defaults.readahead()).isEqualTo(128 * MIB);
        assertThat(defaults.s3ReadBuffers()).isZero();
        assertThat(defaults.describe()).contains("heap up to 320MiB", "direct up to 256MiB", "memory tier 64MiB",
                "stays under 576MiB");
    }

    @Test
    void anS3MountCountsTheCrtClientsReadBuffersInWholeReservations() {
        MemoryBudget crt = budget(true, 320 * MIB, 256 * MIB);
        assertThat(crt.s3ReadBuffers()).isEqualTo(128 * MIB); // 128 MiB of readahead, reserved 16 x 8 MiB at a time
        assertThat(crt.describe()).contains("S3 read buffers (native) up to 128MiB", "stays under 704MiB");
        assertThat(budget(true, 320 * MIB, 256 * MIB, "buffer_size=130MiB").s3ReadBuffers()).isEqualTo(256 * MIB);
        assertThat(budget(true, 320 * MIB, 256 * MIB, "buffer_size=130MiB,s3.read_part_size=2MiB").s3ReadBuffers())
                .isEqualTo(160 * MIB);
        assertThat(budget(true, 320 * MIB, 256 * MIB, "s3.client=netty").s3ReadBuffers()).isZero();
    }

    @Test
    void aMemoryTierBeyondTheDirectLimitIsRefusedWithTheFix() {
        String problem = budget(640 * MIB, 256 * MIB, "local_cache_memory_size=1GiB").problem();
        assertThat(problem).contains("local_cache_memory_size=1GiB", "(-XX:MaxDirectMemorySize) of 256MiB",
                "STRATA_JAVA_OPTS=\"-XX:MaxDirectMemorySize=1088m\"");
    }

    @Test
    void readaheadBuffersOverHalfTheHeapAreRefusedWithTheFix() {
        String problem = budget(640 * MIB, 256 * MIB, "buffer_size=1GiB").problem();
        assertThat(problem).contains("buffer_size=1GiB", "(-Xmx) of 640MiB", "STRATA_JAVA_OPTS=\"-Xmx2176m\"");
    }

    @Test
    void theJnrTransportHasNoFuseBuffersOfOurs() {
        assertThat(budget(640 * MIB, 256 * MIB, "fuse=jnr").fuseBuffers()).isZero();
    }
}
