package io.strata.fuse.observe;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class AccessLogTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AccessLog log = new AccessLog(registry);

    private static String read(AccessLog.Reader reader, int bytes) throws InterruptedException {
        ByteBuffer buffer = ByteBuffer.allocate(bytes);
        int n = reader.read(buffer, 100, TimeUnit.MILLISECONDS);
        return new String(buffer.array(), 0, n, StandardCharsets.UTF_8);
    }

    @Test
    void isInactiveUntilAReaderAttachesAndAfterItCloses() {
        assertThat(log.active()).isFalse();
        AccessLog.Reader reader = log.attach();
        assertThat(log.active()).isTrue();
        reader.close();
        assertThat(log.active()).isFalse();
    }

    @Test
    void aReaderGetsOneLinePerOperationRecordedWhileAttached() throws InterruptedException {
        log.record(0, 0, 1, "lookup", "1,\"before\"", 0, null, 1000);
        try (AccessLog.Reader reader = log.attach()) {
            log.record(1000, 100, 42, "lookup", "1,\"a\"", 2, null, 31_000);
            log.record(1000, 100, 42, "read", "7,4096,0", 0, "4096", 2_000_000);
            String text = read(reader, 4096);
            assertThat(text.lines().toList()).hasSize(2);
            assertThat(text.lines().toList().get(0))
                    .matches("^\\d{4}\\.\\d\\d\\.\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6} \\[uid:1000,gid:100,pid:42] "
                            + "lookup \\(1,\"a\"\\): ENOENT <0\\.000031>$");
            assertThat(text.lines().toList().get(1)).endsWith("read (7,4096,0): OK 4096 <0.002000>");
        }
    }

    @Test
    void aLineLongerThanTheReadBufferIsHandedOutWholeOverTwoReads() throws InterruptedException {
        try (AccessLog.Reader reader = log.attach()) {
            log.record(0, 0, 1, "lookup", "1,\"" + "x".repeat(100) + "\"", 0, null, 1000);
            String first = read(reader, 64);
            String second = read(reader, 4096);
            assertThat(first).hasSize(64);
            assertThat((first + second).lines().toList()).hasSize(1);
            assertThat(second).endsWith(">\n");
        }
    }

    @Test
    void aReaderThatFallsBehindLosesLinesCountedAndNeverBlocksTheRecorder() {
        try (AccessLog.Reader reader = log.attach()) {
            for (int i = 0; i < AccessLog.QUEUE_LINES + 10; i++) {
                log.record(0, 0, 1, "getattr", "1", 0, null, 1000);
            }
            assertThat(registry.counter(AccessLog.DROPPED).count()).isEqualTo(10.0);
        }
    }

    @Test
    void aReadWithNothingToReadReturnsNothingAfterTheWait() throws InterruptedException {
        try (AccessLog.Reader reader = log.attach()) {
            assertThat(read(reader, 4096)).isEmpty();
        }
    }
}
