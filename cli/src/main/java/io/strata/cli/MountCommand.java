package io.strata.cli;

import io.strata.client.VolumeOptions;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import io.strata.core.ufs.UnderFileSystems;
import io.strata.fuse.MountException;
import io.strata.fuse.MountPoints;
import io.strata.fuse.MountRequest;
import io.strata.fuse.StrataMount;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code strata mount SOURCE MOUNTPOINT}: checks everything it can, then starts a daemon and waits
 * for its mount ({@link Daemon}), or with {@code --foreground} mounts in this process and serves
 * until unmounted.
 *
 * <p>Declared in code ({@link #commandLine}), unlike the other commands: picocli reads annotations
 * through the JDK, which spins a proxy class per annotation type, and in a fresh JVM those
 * proxies, for this command and the root, took 0.1-0.16 s of every mount's start (docs/PERFORMANCE.md).
 */
final class MountCommand extends StrataSubcommand {
    static final String NAME = "mount";
    private static final String[] DESCRIPTION = {
        "Mount a directory or an S3 bucket prefix at MOUNTPOINT, in the background unless --foreground.",
        "Options, highest precedence first: -o, STRATA_<KEY> environment variables, --conf FILE"
                + " (default $STRATA_HOME/conf/strata.properties), defaults. 'strata conf' lists them."};

    static final String MOUNTED_PREFIX = "mounted ";
    static final String FAILED_PREFIX = "mount failed: ";
    private static final Duration MOUNT_TIMEOUT = Duration.ofSeconds(30);
    private static final Logger log = LoggerFactory.getLogger(MountCommand.class);

    String source;
    Path mountPoint;
    final ConfigOptions config = new ConfigOptions();
    boolean foreground;

    private MountCommand() {}

    /** The {@code mount} command line under {@code root}, with a new command object to parse into. */
    static CommandLine commandLine(StrataCommand root) {
        MountCommand command = new MountCommand();
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name(NAME);
        spec.usageMessage().sortOptions(false).description(DESCRIPTION);
        spec.addPositional(FieldBinding.bind(PositionalParamSpec.builder(), () -> command.source,
                        (String value) -> command.source = value)
                .index("0").arity("1").required(true).type(String.class).paramLabel("SOURCE")
                .description("A directory (path or file:///abs/dir) or an S3 bucket (s3://bucket[/prefix]) to mount.")
                .build());
        spec.addPositional(FieldBinding.bind(PositionalParamSpec.builder(), () -> command.mountPoint,
                        (Path value) -> command.mountPoint = value)
                .index("1").arity("1").required(true).type(Path.class).paramLabel("MOUNTPOINT")
                .description("An existing empty directory.").build());
        command.declaredInCode(spec, root);
        command.config.declareOn(spec);
        spec.addOption(FieldBinding.bind(OptionSpec.builder("-f", "--foreground"), () -> command.foreground,
                        (Boolean value) -> command.foreground = value)
                .type(boolean.class).initialValue(false)
                .description("Serve the mount in this process until it is unmounted (Ctrl-C or SIGTERM unmounts).")
                .build());
        return new CommandLine(spec);
    }

    @Override
    int run() throws Exception {
        Options options = bindOptions(OptionRegistry.load(), environment());
        Source resolved = resolveSource(source);
        Path target = mountPoint.toAbsolutePath().normalize();
        checkMountPoint(target, resolved.localDir());
        return foreground ? serve(resolved, target, options) : startDaemon(resolved, target, options);
    }

    /**
     * A checked source: its URI, the local directory (null for a bucket), and how to show it.
     */
    record Source(URI uri, Path localDir, String shown) {}

    /** The options from every source; a daemon takes its parent's, already bound and checked, alone. */
    Options bindOptions(OptionRegistry registry, Map<String, String> environment) {
        String fromParent = environment.get(Daemon.OPTIONS_ENV);
        if (!foreground || fromParent == null) {
            return config.bind(registry, environment);
        }
        OptionsLoader loader = new OptionsLoader(registry);
        try {
            Daemon.decode(fromParent).forEach((key, value) -> loader.set(key, value, "strata mount"));
        } catch (OptionException e) {
            throw new OptionException("in " + Daemon.OPTIONS_ENV + ": " + e.getMessage());
        }
        return loader.commandLine(config.dashO).build();
    }

    /**
     * A directory path (relative to the working directory) or a {@code file:} URI, as an absolute
     * path; or an {@code s3://bucket[/prefix]} URI, checked for its form (whether the bucket is
     * there is the mount's to find out).
     */
    static Source resolveSource(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.startsWith("s3a://") || lower.startsWith("s3n://")) {
            throw CliException.badInput("unsupported source scheme in '" + text.substring(0, lower.indexOf(':'))
                    + "://...'; write the bucket as s3://bucket/prefix");
        }
        if (lower.startsWith("s3:")) {
            try {
                URI uri = UnderFileSystems.toUri(text);
                return new Source(uri, null, uri.toString());
            } catch (IllegalArgumentException e) {
                throw CliException.badInput(e.getMessage());
            }
        }
        Path dir = localSource(text);
        return new Source(dir.toUri(), dir, dir.toString());
    }

    private static Path localSource(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        Path dir;
        if (lower.startsWith("file:")) {
            dir = fileUriPath(text);
        } else if (lower.matches("[a-z][a-z0-9+.-]*://.*")) {
            throw CliException.badInput("unsupported source '" + text + "'; mount a local directory"
                    + " (a path or file:///absolute/dir) or an S3 bucket (s3://bucket/prefix)");
        } else {
            dir = Path.of(text);
        }
        dir = dir.toAbsolutePath().normalize();
        if (!Files.exists(dir)) {
            throw CliException.badInput("source " + dir + " does not exist; give an existing directory to mount");
        }
        if (!Files.isDirectory(dir)) {
            throw CliException.badInput("source " + dir + " is not a directory; give a directory to mount");
        }
        if (!Files.isReadable(dir)) {
            throw CliException.badInput("source " + dir + " is not readable; check its permissions");
        }
        return dir;
    }

    private static Path fileUriPath(String text) {
        try {
            URI uri = new URI(text);
            String authority = uri.getAuthority();
            if (uri.getPath() == null || !uri.getPath().startsWith("/")
                    || (authority != null && !authority.equals("localhost"))) {
                throw new URISyntaxException(text, "not a local absolute path");
            }
            return Path.of(uri.getPath());
        } catch (URISyntaxException e) {
            throw CliException.badInput("bad source URI '" + text + "'; write file:///absolute/dir or a directory path");
        }
    }

    /**
     * The mountpoint must be an existing, empty directory that nothing is mounted on and that is
     * outside the source ({@code sourceDir}, null for a bucket). A stale FUSE mount (its daemon
     * died) is cleared first, with a warning.
     */
    void checkMountPoint(Path target, Path sourceDir) {
        if (MountPoints.isStale(target)) {
            try {
                MountPoints.clearStale(target);
            } catch (IOException e) {
                throw CliException.failure("cannot clear the stale mount at " + target + " (" + Messages.describe(e)
                        + "); run 'fusermount -u -z " + target + "' and try again");
            }
            error("cleared a stale mount at " + target + " (its daemon was gone)");
        }
        Optional<MountPoints.Entry> mounted = MountPoints.find(target);
        if (mounted.isPresent()) {
            if (mounted.get().isFuse()) {
                throw CliException.badInput("mountpoint " + target + " is already mounted (" + mounted.get().fsType()
                        + "); unmount it first with 'strata umount " + target + "'");
            }
            throw CliException.badInput("mountpoint " + target + " is already a " + mounted.get().fsType()
                    + " mount point; choose an empty directory that nothing is mounted on");
        }
        if (!Files.exists(target)) {
            throw CliException.badInput("mountpoint " + target + " does not exist; create it with 'mkdir -p "
                    + target + "'");
        }
        if (!Files.isDirectory(target)) {
            throw CliException.badInput("mountpoint " + target + " is not a directory; give an empty directory");
        }
        try (Stream<Path> children = Files.list(target)) {
            if (children.findAny().isPresent()) {
                throw CliException.badInput("mountpoint " + target + " is not empty; mount on an empty directory");
            }
        } catch (IOException e) {
            throw CliException.badInput("cannot read mountpoint " + target + " (" + Messages.describe(e)
                    + "); check its permissions");
        }
        if (sourceDir == null) {
            return;
        }
        Path realTarget = realPath(target);
        Path realSource = realPath(sourceDir);
        if (realTarget.startsWith(realSource)) {
            throw CliException.badInput("mountpoint " + target + " is inside the source " + sourceDir
                    + "; choose a mountpoint outside it");
        }
    }

    /** Mounts in this process and serves until unmounted (by strata umount, fusermount -u or a signal). */
    private int serve(Source source, Path target, Options options) {
        MemoryBudget memory = MemoryBudget.of(source.uri(), options);
        String problem = memory.problem();
        if (problem != null) {
            throw CliException.badInput(FAILED_PREFIX + problem);
        }
        log.info(memory.describe());
        StrataMount mount;
        try {
            mount = StrataMount.mount(new MountRequest(source.uri(), target, options));
        } catch (MountException e) {
            throw CliException.failure(FAILED_PREFIX + e.getMessage());
        } catch (IOException e) {
            log.debug("mount failed", e);
            throw CliException.failure(FAILED_PREFIX + Messages.describe(e));
        } catch (RuntimeException e) {
            log.error("mount failed", e);
            throw CliException.failure(FAILED_PREFIX + e);
        }
        Path pidFile = Daemon.pidFile(Path.of(options.get(VolumeOptions.STATE_DIR)), target);
        Thread unmountOnExit = new Thread(() -> close(mount, pidFile), "strata-unmount");
        Runtime.getRuntime().addShutdownHook(unmountOnExit);
        try {
            Daemon.writePidFile(pidFile);
        } catch (IOException e) {
            error("cannot write the pid file " + pidFile + " (" + Messages.describe(e)
                    + "); 'strata umount' will not wait for this process");
        }
        String logFile = environment().get(Daemon.LOG_ENV);
        out().println(mountedLine(source.shown(), target, mount.metaUrl(), logFile, ProcessHandle.current().pid()));
        out().flush();
        try {
            mount.awaitUnmounted();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(unmountOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already; closing twice is fine
        }
        try {
            mount.close();
        } catch (IOException e) {
            throw CliException.failure("unmounted " + target + ", but closing the volume failed: "
                    + Messages.describe(e));
        } finally {
            Daemon.removePidFile(pidFile);
        }
        return ExitCodes.OK;
    }

    private static void close(StrataMount mount, Path pidFile) {
        try {
            mount.close();
        } catch (IOException | RuntimeException e) {
            log.error("closing the mount failed", e);
        } finally {
            Daemon.removePidFile(pidFile);
        }
    }

    /** Starts the daemon, waits for its mount, and relays its "mounted" line or its error. */
    private int startDaemon(Source source, Path target, Options options) throws InterruptedException {
        Path stateDir = Path.of(options.get(VolumeOptions.STATE_DIR));
        Path logFile = Daemon.logFile(stateDir, target);
        long offset;
        Daemon.Started daemon;
        try {
            Files.createDirectories(logFile.getParent());
            Files.createDirectories(Daemon.pidFile(stateDir, target).getParent());
            offset = Files.exists(logFile) ? Files.size(logFile) : 0;
            daemon = Daemon.start(Daemon.command(source.shown(), target), options.toText(), logFile);
        } catch (IOException e) {
            throw CliException.failure("cannot start the mount daemon (" + Messages.describe(e)
                    + "); set -o state_dir=DIR to a writable directory");
        }
        Daemon.Outcome outcome = Daemon.awaitMount(daemon, target, logFile, offset, MOUNT_TIMEOUT);
        if (!outcome.mounted()) {
            throw CliException.failure(FAILED_PREFIX + outcome.line());
        }
        out().println(outcome.line() != null ? outcome.line()
                : mountedLine(source.shown(), target, "(see log)", logFile.toString(), daemon.pid()));
        return ExitCodes.OK;
    }

    static String mountedLine(Path source, Path target, String metaUrl, String log, long pid) {
        return mountedLine(source.toString(), target, metaUrl, log, pid);
    }

    static String mountedLine(String source, Path target, String metaUrl, String log, long pid) {
        return MOUNTED_PREFIX + source + " at " + target + " (metastore " + metaUrl
                + (log != null ? ", log " + log : "") + ", pid " + pid + ")";
    }

    private static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path;
        }
    }
}
