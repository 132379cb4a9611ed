package io.strata.cli;

import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import io.strata.fuse.FuseOptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryBudgetTest {
    static final long MIB = 1 << 20;

    static Options options(String... dashO) {
        return new OptionsLoader(OptionRegistry.load()).commandLine(List.of(dashO)).build();
    }

    static MemoryBudget budget(long heap, long direct, String... dashO) {
        MemoryBudget parts = MemoryBudget.of(options(dashO));
        return new MemoryBudget(heap, direct, parts.memoryTier(), parts.fuseBuffers(), parts.readahead());
    }

    @Test
    void theDefaultsFitTheLimitsBinStrataGivesAMount() {
        MemoryBudget defaults = budget(320 * MIB, 256 * MIB);
        assertThat(defaults.problem()).isNull();
        assertThat(defaults.memoryTier()).isEqualTo(64 * MIB);
        // one buffer per worker, of which there are 4 to 16 (twice the CPUs)
        assertThat(defaults.fuseBuffers()).isEqualTo(FuseOptions.workers(options()) * (MIB + 64 * 1024));
        assertThat(defaults.fuseBuffers()).isBetween(4 * (MIB + 64 * 1024), 16 * (MIB + 64 * 1024));
        assertThat(defaults.readahead()).isEqualTo(128 * MIB);
        assertThat(defaults.describe()).contains("heap up to 320MiB", "direct up to 256MiB", "memory tier 64MiB",
                "stays under 576MiB");
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
