package io.strata.cli.stats;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a mount's {@code .accesslog}:
 * {@code 2026.11.25 15:30:01.123456 [uid:0,gid:0,pid:4242] lookup (1,"a"): OK <0.000031>}.
 */
public record AccessLogLine(int uid, int gid, int pid, String op, String arguments, String result, double seconds) {
    private static final Pattern LINE = Pattern.compile(
            "^\\S+ \\S+ \\[uid:(\\d+),gid:(\\d+),pid:(\\d+)] (\\S+) \\((.*)\\): (\\S+)(?: \\S+)? <([0-9.]+)>$");

    /** The line's fields; empty for what is not an operation's line (keep-alives, other text). */
    public static Optional<AccessLogLine> parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new AccessLogLine(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), m.group(4), m.group(5), m.group(6), Double.parseDouble(m.group(7))));
    }
}
