package io.strata.cli.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatsViewTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aSampleSumsEverySeriesOfAMetricThatHasTheGivenLabels() {
        StatsSample sample = StatsSample.parse("""
                strata_fuse_ops_seconds_count{op="read"} 10
                strata_fuse_ops_seconds_count{op="lookup"} 5
                strata_fuse_ops_seconds_countless 99
                # a comment 1
                strata_cache_hits_total{tier="memory"} 2.0
                """, 0);
        assertThat(sample.sum("strata_fuse_ops_seconds_count")).isEqualTo(15);
        assertThat(sample.sum("strata_fuse_ops_seconds_count", "op=\"read\"")).isEqualTo(10);
        assertThat(sample.has("strata_cache_hits_total")).isTrue();
        assertThat(sample.has("strata_cache_misses_total")).isFalse();
    }

    @Test
    void aRowShowsRatesAndLatenciesBetweenTwoSamples() {
        StatsSample older = StatsSample.parse("""
                strata_fuse_ops_seconds_count{op="read"} 100
                strata_fuse_ops_seconds_sum{op="read"} 1.0
                strata_fuse_bytes_total{direction="read"} 0
                strata_cache_hits_total{tier="memory"} 0
                strata_cache_fetches_total{tier="ufs"} 0
                strata_process_resident_memory_bytes 1048576000
                """, 0);
        StatsSample newer = StatsSample.parse("""
                strata_fuse_ops_seconds_count{op="read"} 300
                strata_fuse_ops_seconds_sum{op="read"} 1.4
                strata_fuse_bytes_total{direction="read"} 419430400
                strata_cache_hits_total{tier="memory"} 3
                strata_cache_fetches_total{tier="ufs"} 1
                strata_process_resident_memory_bytes 1048576000
                """, 2 * SECOND);
        StatsView view = new StatsView(0);
        String header = view.header().get(1);
        String row = view.row(older, newer);
        assertThat(row.length()).isEqualTo(header.length());
        assertThat(column(view, row, "mem")).isEqualTo("1000M");
        assertThat(column(view, row, "ops")).isEqualTo("100"); // fuse ops: 200 in 2 s
        assertThat(column(view, row, "lat")).isEqualTo("2.00ms"); // 0.4 s over 200 reads
        assertThat(column(view, row, "read")).isEqualTo("200M");
        assertThat(column(view, row, "hit%")).isEqualTo("75.0%");
    }

    @Test
    void moreVerbosityShowsMoreColumns() {
        assertThat(new StatsView(1).header().get(1).length()).isGreaterThan(new StatsView(0).header().get(1).length());
        assertThat(new StatsView(2).header().get(0)).contains("-jvm");
        assertThat(new StatsView(0).header().get(0)).doesNotContain("-jvm");
    }

    /** The first column with that header, trimmed. */
    private static String column(StatsView view, String row, String header) {
        String names = view.header().get(1);
        int end = names.indexOf(" " + header) + 1 + header.length();
        return row.substring(end - 7, end).trim();
    }
}
