package io.strata.core.conf;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DurationsTest {
    @Test
    void bareNumberIsSeconds() {
        assertEquals(Duration.ofSeconds(600), Durations.parse("600"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5"));
        assertEquals(Duration.ZERO, Durations.parse("0"));
    }

    @Test
    void unitsAreAccepted() {
        assertEquals(Duration.ofMinutes(10), Durations.parse("10min"));
        assertEquals(Duration.ofMinutes(10), Durations.parse("10m"));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("30s"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("30sec"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ofDays(2), Durations.parse("2d"));
        assertEquals(Duration.ofNanos(250_000), Durations.parse("250us"));
        assertEquals(Duration.ofNanos(7), Durations.parse("7ns"));
        assertEquals(Duration.ofMillis(250), Durations.parse(" 0.25 S "));
    }

    @Test
    void badFormsAreRejectedNamingTheForm() {
        for (String bad : List.of("ten", "", "-1", "1.5.2", "10 parsecs", "s", "1e3", "PT1S")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad),
                    "'" + bad + "'");
            assertTrue(e.getMessage().contains("such as 1.5 (seconds), 500ms, 30s, 10min or 1h"), e.getMessage());
        }
    }

    @Test
    void durationsBeyondALongOfNanosAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("1000000d"));
    }

    @Test
    void printsDecimalSecondsForLibfuse() {
        assertEquals("1", Durations.toSeconds(Duration.ofSeconds(1)));
        assertEquals("0.25", Durations.toSeconds(Duration.ofMillis(250)));
        assertEquals("600", Durations.toSeconds(Duration.ofMinutes(10)));
        assertEquals("0", Durations.toSeconds(Duration.ZERO));
        assertEquals("0.000000001", Durations.toSeconds(Duration.ofNanos(1)));
    }

    @Test
    void printedDurationsParseBack() {
        for (Duration d : List.of(Duration.ZERO, Duration.ofNanos(1), Duration.ofMillis(250), Duration.ofDays(3))) {
            assertEquals(d, Durations.parse(Durations.toSeconds(d)));
            assertEquals(d, OptionType.DURATION.parse(OptionType.DURATION.print(d)));
        }
    }
}
