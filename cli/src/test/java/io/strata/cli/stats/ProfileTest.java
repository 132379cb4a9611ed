package io.strata.cli.stats;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProfileTest {
    private static AccessLogLine line(String text) {
        return AccessLogLine.parse(text).orElseThrow();
    }

    @Test
    void anAccessLogLineIsParsedIntoItsFields() {
        AccessLogLine line = line("2026.11.25 15:30:01.123456 [uid:1000,gid:100,pid:42] read (7,4096,0): OK 4096"
                + " <0.000250>");
        assertThat(line).isEqualTo(new AccessLogLine(1000, 100, 42, "read", "7,4096,0", "OK", 0.00025));
    }

    @Test
    void keepAlivesAndOtherTextAreNotOperations() {
        assertThat(AccessLogLine.parse("#")).isEmpty();
        assertThat(AccessLogLine.parse("")).isEmpty();
        assertThat(AccessLogLine.parse("hello world")).isEmpty();
    }

    @Test
    void operationsAreSummedAndTheSlowestAltogetherComesFirst() {
        Profile profile = new Profile(l -> true);
        profile.add(line("2026.11.25 15:30:01.000001 [uid:0,gid:0,pid:1] lookup (1,\"a\"): ENOENT <0.001000>"));
        profile.add(line("2026.11.25 15:30:01.000002 [uid:0,gid:0,pid:1] lookup (1,\"b\"): OK <0.003000>"));
        profile.add(line("2026.11.25 15:30:01.000003 [uid:0,gid:0,pid:1] read (5,4096,0): OK 4096 <0.010000>"));
        List<Profile.OpTotals> totals = profile.totals();
        assertThat(totals).extracting(Profile.OpTotals::op).containsExactly("read", "lookup");
        assertThat(totals.get(1).count()).isEqualTo(2);
        assertThat(totals.get(1).errors()).isEqualTo(1);
        assertThat(totals.get(1).averageSeconds()).isEqualTo(0.002);
        assertThat(profile.table().get(2)).matches("^lookup\\s+2\\s+1\\s+0\\.004\\s+2\\.000$");
    }

    @Test
    void aFilterKeepsOnlyTheLinesItAccepts() {
        Profile profile = new Profile(l -> l.pid() == 2);
        profile.add(line("2026.11.25 15:30:01.000001 [uid:0,gid:0,pid:1] lookup (1,\"a\"): OK <0.001000>"));
        profile.add(line("2026.11.25 15:30:01.000002 [uid:0,gid:0,pid:2] getattr (1): OK <0.001000>"));
        assertThat(profile.lines()).isEqualTo(1);
        assertThat(profile.totals()).extracting(Profile.OpTotals::op).containsExactly("getattr");
    }
}
