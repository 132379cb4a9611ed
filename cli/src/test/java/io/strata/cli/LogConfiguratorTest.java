package io.strata.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import static org.assertj.core.api.Assertions.assertThat;

class LogConfiguratorTest {
    @Test
    void infoAndUpGoToStderrAndChattyLibrariesOnlyWarn() {
        LoggerContext context = new LoggerContext();
        LogConfigurator configurator = new LogConfigurator();
        configurator.setContext(context);

        assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(root.getAppender("STDERR")).isInstanceOfSatisfying(ConsoleAppender.class,
                appender -> assertThat(appender.getTarget()).isEqualTo("System.err"));
        assertThat(context.getLogger("software.amazon.awssdk.request").getEffectiveLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("io.strata.fuse").getEffectiveLevel()).isEqualTo(Level.INFO);
    }

    @Test
    void aConfigurationFileNamedByTheUserWins() {
        LoggerContext context = new LoggerContext();
        LogConfigurator configurator = new LogConfigurator();
        configurator.setContext(context);
        System.setProperty("logback.configurationFile", "/etc/strata/logback.xml");
        try {
            assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
            assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isNull();
        } finally {
            System.clearProperty("logback.configurationFile");
        }
    }
}
