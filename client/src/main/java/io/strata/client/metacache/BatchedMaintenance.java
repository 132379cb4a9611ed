package io.strata.client.metacache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Where the heap cache's upkeep runs (Caffeine's maintenance: the eviction order, the expiry
 * timers): on the thread that wrote, at once; or, while that thread remembers a batch (a page of a
 * listing with its inodes), once when the batch ends.
 *
 * <p>Why: run at once, every write paid a whole maintenance pass, and a page of a cold listing
 * writes one entry per name. In a cold {@code find} over 10,000 files the passes took 14 % of the
 * FUSE threads' time. Caffeine asks for a pass only when none is pending, so while one is held
 * back the batch's writes just queue in its write buffer (a full buffer is drained by the writer
 * itself), and the pass at the end takes them all. Handing passes to another thread instead (the
 * common pool) woke that thread on nearly every request.
 */
final class BatchedMaintenance implements Executor {
    /** The passes asked for during the current thread's batch; null outside one. */
    private final ThreadLocal<List<Runnable>> heldBack = new ThreadLocal<>();

    @Override
    public void execute(Runnable pass) {
        List<Runnable> held = heldBack.get();
        if (held == null) {
            pass.run();
        } else {
            held.add(pass);
        }
    }

    /** Runs {@code writes}; the maintenance they ask for runs once after them, even if they throw. */
    void batch(Runnable writes) {
        if (heldBack.get() != null) {
            writes.run(); // inside a batch already: the outer one runs the passes
            return;
        }
        List<Runnable> held = new ArrayList<>(1);
        heldBack.set(held);
        try {
            writes.run();
        } finally {
            heldBack.remove();
            held.forEach(Runnable::run);
        }
    }
}
