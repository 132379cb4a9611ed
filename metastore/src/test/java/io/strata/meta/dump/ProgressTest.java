package io.strata.meta.dump;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Progress output with an injected clock: lines for logs, a bar redrawn in place for terminals. */
class ProgressTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void linesComeAtTheIntervalWithRateAndEta() {
        StringWriter text = new StringWriter();
        AtomicLong clock = new AtomicLong(0);
        Progress progress = Progress.lines(new PrintWriter(text), clock::get, 5 * SECOND);
        progress.start("dump", 100_000);
        for (int second = 1; second <= 10; second++) {
            clock.set(second * SECOND);
            progress.advance(5_000); // 5,000 entries a second
        }
        progress.warn("something odd");
        clock.set(20 * SECOND);
        progress.advance(50_000);
        progress.finish();
        assertEquals("""
                dump: 25,000 of ~100,000 entries (25%), 5,000/s, ETA 0:15
                dump: 50,000 of ~100,000 entries (50%), 5,000/s, ETA 0:10
                strata: warning: something odd
                dump: 100,000 of ~100,000 entries (100%), 5,000/s, ETA 0:00
                dump: 100,000 entries in 20.0 s (5,000/s)
                """, text.toString());
    }

    @Test
    void barIsRedrawnInPlaceAndEndsWithALineBreak() {
        StringWriter text = new StringWriter();
        AtomicLong clock = new AtomicLong(0);
        Progress progress = Progress.bar(new PrintWriter(text), clock::get);
        progress.start("load", 2_000);
        clock.set(SECOND);
        progress.advance(1_024);
        progress.warn("careful");
        progress.finish();
        String out = text.toString();
        assertTrue(out.startsWith("\r[###############...............] load: 1,024 of ~2,000 entries (51%), 1,024/s, "
                + "ETA 0:01\u001b[K"), out);
        assertTrue(out.contains("\r\u001b[Kstrata: warning: careful\n"), out);
        assertTrue(out.endsWith("\rload: 1,024 entries in 1.0 s (1,024/s)\u001b[K\n"), out);
    }
}
