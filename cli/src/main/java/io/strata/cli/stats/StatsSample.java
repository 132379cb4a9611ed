package io.strata.cli.stats;

import java.util.HashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One reading of a mount's {@code .stats}: each line's series ({@code name} or
 * {@code name{label="value",...}}) and its value, taken at {@code nanoTime}.
 */
public record StatsSample(long nanoTime, Map<String, Double> values) {
    public StatsSample {
        values = Map.copyOf(requireNonNull(values, "values is null"));
    }

    /** Reads {@code .stats} text: one {@code series value} per line; other lines are skipped. */
    public static StatsSample parse(String text, long nanoTime) {
        Map<String, Double> values = new HashMap<>();
        for (String line : text.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space <= 0 || line.startsWith("#")) {
                continue;
            }
            try {
                values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            } catch (NumberFormatException e) {
                // not a sample line
            }
        }
        return new StatsSample(nanoTime, values);
    }

    /** The sum over every series of metric {@code name} whose labels contain each of {@code labels}. */
    public double sum(String name, String... labels) {
        double sum = 0;
        for (Map.Entry<String, Double> entry : values.entrySet()) {
            if (isSeriesOf(entry.getKey(), name) && hasAll(entry.getKey(), labels) && !entry.getValue().isNaN()) {
                sum += entry.getValue();
            }
        }
        return sum;
    }

    /** Whether any series of metric {@code name} is present. */
    public boolean has(String name) {
        return values.keySet().stream().anyMatch(series -> isSeriesOf(series, name));
    }

    private static boolean isSeriesOf(String series, String name) {
        return series.startsWith(name) && (series.length() == name.length() || series.charAt(name.length()) == '{');
    }

    private static boolean hasAll(String series, String[] labels) {
        for (String label : labels) {
            if (!series.contains(label)) {
                return false;
            }
        }
        return true;
    }
}
