package io.strata.client.metacache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A real Caffeine cache bounded to 2 entries: when its eviction (maintenance) runs shows where passes ran. */
class BatchedMaintenanceTest {
    private final BatchedMaintenance maintenance = new BatchedMaintenance();
    private final Cache<Integer, Integer> cache = Caffeine.newBuilder()
            .maximumSize(2)
            .executor(maintenance)
            .build();

    @Test
    void outsideABatchEachWriteIsMaintainedAtOnce() {
        for (int i = 0; i < 5; i++) {
            cache.put(i, i);
            assertThat(cache.asMap()).hasSizeLessThanOrEqualTo(2);
        }
    }

    @Test
    void writesInABatchAreMaintainedOnceWhenItEnds() {
        maintenance.batch(() -> {
            for (int i = 0; i < 5; i++) {
                cache.put(i, i);
            }
            assertThat(cache.asMap()).hasSize(5); // nothing evicted yet: the pass is held back
        });
        assertThat(cache.asMap()).hasSize(2);
    }

    @Test
    void aNestedBatchLeavesThePassToTheOuterOne() {
        maintenance.batch(() -> {
            maintenance.batch(() -> {
                for (int i = 0; i < 5; i++) {
                    cache.put(i, i);
                }
            });
            assertThat(cache.asMap()).hasSize(5);
        });
        assertThat(cache.asMap()).hasSize(2);
    }

    @Test
    void aBatchThatThrowsStillRunsItsPasses() {
        assertThatThrownBy(() -> maintenance.batch(() -> {
            for (int i = 0; i < 5; i++) {
                cache.put(i, i);
            }
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(cache.asMap()).hasSize(2);
        cache.put(9, 9); // and later writes are maintained at once again
        assertThat(cache.asMap()).hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void anotherThreadsWritesWaitForTheHeldBackPassAndAreNotLost() throws InterruptedException {
        AtomicInteger seen = new AtomicInteger();
        maintenance.batch(() -> {
            cache.put(1, 1);
            Thread other = new Thread(() -> {
                for (int i = 10; i < 15; i++) {
                    cache.put(i, i);
                }
                seen.set(cache.asMap().size());
            });
            other.start();
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        assertThat(seen.get()).isEqualTo(6); // the other thread's writes queued behind the held-back pass
        assertThat(cache.asMap()).hasSize(2);
    }
}
