package io.strata.core.readahead;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.function.ToDoubleFunction;

import static java.util.Objects.requireNonNull;

/**
 * The readahead engine's meters, all named {@code strata.readahead.*}: its {@link ReadaheadStats}
 * and its {@link BufferBudget}, read when the registry is read. The engine keeps counting in its
 * own adders; the meters only look at them, so nothing is counted twice and the read path pays
 * nothing for metrics. The meters hold the engine weakly (FunctionCounter can do no other), so the
 * engine's owner, the under storage, must outlive the registry's readers; the volume holds both.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>what</th></tr>
 *   <tr><td>strata.readahead.requests</td><td>ranged GETs started</td></tr>
 *   <tr><td>strata.readahead.requests.ahead</td><td>those that were readahead</td></tr>
 *   <tr><td>strata.readahead.bytes.requested</td><td>bytes asked for by those GETs</td></tr>
 *   <tr><td>strata.readahead.reads.joined</td><td>reads that waited for a GET already started</td></tr>
 *   <tr><td>strata.readahead.bytes.unread</td><td>fetched bytes dropped unread</td></tr>
 *   <tr><td>strata.readahead.refused</td><td>readahead parts not requested: the budget was full</td></tr>
 *   <tr><td>strata.readahead.bytes.reclaimed</td><td>bytes given back to the budget for waiting readers</td></tr>
 *   <tr><td>strata.readahead.buffer.used</td><td>bytes reserved in the budget now (gauge)</td></tr>
 *   <tr><td>strata.readahead.buffer.limit</td><td>the budget, {@code buffer_size} (gauge)</td></tr>
 * </table>
 */
public final class ReadaheadMetrics implements MeterBinder {
    private static final String BYTES = "bytes";

    private final ReadaheadStats stats;
    private final BufferBudget budget;

    public ReadaheadMetrics(Readahead readahead) {
        requireNonNull(readahead, "readahead is null");
        this.stats = readahead.stats();
        this.budget = readahead.budget();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "strata.readahead.requests", ReadaheadStats::requests, null);
        counter(registry, "strata.readahead.requests.ahead", ReadaheadStats::readaheadRequests, null);
        counter(registry, "strata.readahead.bytes.requested", ReadaheadStats::requestedBytes, BYTES);
        counter(registry, "strata.readahead.reads.joined", ReadaheadStats::joinedReads, null);
        counter(registry, "strata.readahead.bytes.unread", ReadaheadStats::unreadBytes, BYTES);
        counter(registry, "strata.readahead.refused", ReadaheadStats::refusedReadahead, null);
        counter(registry, "strata.readahead.bytes.reclaimed", ReadaheadStats::reclaimedBytes, BYTES);
        // used() takes the budget's monitor, a leaf held only for a few instructions: fine for a scrape.
        gauge(registry, "strata.readahead.buffer.used", BufferBudget::used);
        gauge(registry, "strata.readahead.buffer.limit", BufferBudget::limit);
    }

    private void counter(MeterRegistry registry, String name, ToDoubleFunction<ReadaheadStats> value, String unit) {
        FunctionCounter.builder(name, stats, value).baseUnit(unit).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, ToDoubleFunction<BufferBudget> value) {
        Gauge.builder(name, budget, value).baseUnit(BYTES).register(registry);
    }
}
