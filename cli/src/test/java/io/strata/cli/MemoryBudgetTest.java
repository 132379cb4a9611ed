package io.strata.cli;

import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import io.strata.fuse.FuseOptions;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryBudgetTest {
    static final long MIB = 1 << 20;

    static Options options(String... dashO) {
        return new OptionsLoader(OptionRegistry.load()).commandLine(List.of(dashO)).build();
    }

    static final URI BUCKET = URI.create("s3://bucket/prefix");

    static MemoryBudget budget(long heap, long direct, String... dashO) {
        return budget(BUCKET, heap, direct, dashO);
    }

    static MemoryBudget budget(URI source, long heap, long direct, String... dashO) {
        MemoryBudget parts = MemoryBudget.of(source, options(dashO));
        return new MemoryBudget(heap, direct, parts.memoryTier(), parts.fuseBuffers(), parts.readahead(), parts.s3Pool());
    }

    @Test
    void theDefaultsFitTheLimitsBinStrataGivesAMount() {
        MemoryBudget defaults = budget(320 * MIB, 384 * MIB);
        assertThat(defaults.problem()).isNull();
        assertThat(defaults.memoryTier()).isEqualTo(64 * MIB);
        // one buffer per worker, of which there are 4 to 16 (twice the CPUs)
        assertThat(defaults.fuseBuffers()).isEqualTo(FuseOptions.workers(options()) * (MIB + 64 * 1024));
        assertThat(defaults.fuseBuffers()).isBetween(4 * (MIB + 64 * 1024), 16 * (MIB + 64 * 1024));
        assertThat(defaults.readahead()).isEqualTo(128 * MIB);
        assertThat(defaults.s3Pool()).isEqualTo(144 * MIB);
        assertThat(defaults.describe()).contains("heap up to 320MiB", "direct up to 384MiB", "memory tier 64MiB",
                "S3 client's pool 144MiB", "stays under 704MiB");
    }

    @Test
    void theS3ClientsPoolFollowsTheReadaheadBudgetInWholeParts() {
        assertThat(budget(320 * MIB, 384 * MIB, "buffer_size=60MiB").s3Pool()).isEqualTo(72 * MIB);
        assertThat(budget(320 * MIB, 384 * MIB, "s3.client=netty").s3Pool()).isZero();
        assertThat(budget(URI.create("file:///data"), 320 * MIB, 384 * MIB).s3Pool()).isZero();
    }

    @Test
    void aPoolBeyondTheDirectLimitIsRefusedWithTheFix() {
        String problem = budget(2048 * MIB, 384 * MIB, "buffer_size=512MiB").problem();
        assertThat(problem).contains("S3 client's pool (528MiB, from buffer_size)", "lower local_cache_memory_size or buffer_size",
                "STRATA_JAVA_OPTS=\"-XX:MaxDirectMemorySize=640m\"");
    }

    @Test
    void aMemoryTierBeyondTheDirectLimitIsRefusedWithTheFix() {
        String problem = budget(640 * MIB, 384 * MIB, "local_cache_memory_size=1GiB").problem();
        assertThat(problem).contains("local_cache_memory_size=1GiB", "(-XX:MaxDirectMemorySize) of 384MiB",
                "STRATA_JAVA_OPTS=\"-XX:MaxDirectMemorySize=1216m\"");
    }

    @Test
    void readaheadBuffersOverHalfTheHeapAreRefusedWithTheFix() {
        String problem = budget(640 * MIB, 256 * MIB, "buffer_size=1GiB", "s3.client=netty").problem();
        assertThat(problem).contains("buffer_size=1GiB", "(-Xmx) of 640MiB", "STRATA_JAVA_OPTS=\"-Xmx2176m\"");
    }

    @Test
    void theJnrTransportHasNoFuseBuffersOfOurs() {
        assertThat(budget(640 * MIB, 256 * MIB, "fuse=jnr").fuseBuffers()).isZero();
    }
}
