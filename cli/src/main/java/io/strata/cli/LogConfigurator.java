package io.strata.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

import java.util.List;

/**
 * Logging of the strata command and its mount daemons: INFO and up to stderr (a background
 * mount's stderr is its log file under state_dir/logs), libraries that are chatty at INFO at WARN.
 *
 * <p>In code rather than a logback.xml because logback's XML configuration took ~90 ms of every
 * mount's start (a wall profile of the main thread: 148 ms in logging's start, 82 of them in
 * Joran). {@code -Dlogback.configurationFile=FILE} (through STRATA_JAVA_OPTS) still wins, as does a
 * {@code logback-test.xml} on a test class path: this configurator then steps aside.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{24} - %msg%n";
    private static final List<String> CHATTY = List.of("jnr", "ru.serce.jnrfuse", "com.zaxxer.hikari",
            "org.sqlite", "org.postgresql", "redis.clients", "io.netty", "software.amazon.awssdk",
            "org.apache.http", "org.apache.hadoop");

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || LogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(stderr);
        CHATTY.forEach(name -> context.getLogger(name).setLevel(Level.WARN));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
