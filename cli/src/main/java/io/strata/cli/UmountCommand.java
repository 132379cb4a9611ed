package io.strata.cli;

import io.strata.client.VolumeOptions;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.fuse.MountPoints;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code strata umount MOUNTPOINT}: unmounts a Strata (FUSE) mount and waits for its daemon to
 * exit, so that its metastore is flushed and closed when the command returns.
 */
@Command(name = "umount", aliases = "unmount", sortOptions = false,
        description = "Unmount a Strata mount and wait for its daemon to finish.")
final class UmountCommand extends StrataSubcommand {
    private static final Duration DAEMON_EXIT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration EXIT_POLL = Duration.ofMillis(10);

    @Parameters(index = "0", paramLabel = "MOUNTPOINT", description = "Where the volume is mounted.")
    Path mountPoint;

    @Option(names = {"-l", "--lazy"},
            description = "Detach now even if files are open under it; the daemon exits when the last is closed.")
    boolean lazy;

    @Override
    int run() throws InterruptedException {
        Path target = mountPoint.toAbsolutePath().normalize();
        MountPoints.Entry entry = MountPoints.find(target).orElseThrow(() -> CliException.badInput(
                target + " is not mounted; give the mountpoint of a Strata mount (see 'grep fuse /proc/mounts')"));
        if (!entry.isFuse()) {
            throw CliException.badInput(target + " is a " + entry.fsType()
                    + " mount, not a Strata mount; unmount it with umount(8)");
        }
        Optional<ProcessHandle> daemon = Daemon.find(stateDir(), target);
        try {
            MountPoints.unmount(target, lazy);
        } catch (MountPoints.BusyException e) {
            throw CliException.failure("mountpoint " + target + " is busy: close the files open under it, or use --lazy");
        } catch (IOException e) {
            throw CliException.failure("cannot unmount " + target + ": " + e.getMessage());
        }
        if (daemon.isPresent() && !awaitExit(daemon.get())) {
            if (lazy) {
                out().println("unmounted " + target + " lazily; its daemon (pid " + daemon.get().pid()
                        + ") exits once the last file open under it is closed");
                return ExitCodes.OK;
            }
            throw CliException.failure("unmounted " + target + ", but its daemon (pid " + daemon.get().pid()
                    + ") is still running after " + DAEMON_EXIT_TIMEOUT.toSeconds() + "s; see its log "
                    + Daemon.logFile(stateDir(), target));
        }
        out().println("unmounted " + target);
        return ExitCodes.OK;
    }

    /** Where mount wrote its pid file: state_dir from the config file and environment, else the default. */
    private Path stateDir() {
        Options options;
        try {
            options = new ConfigOptions().bind(OptionRegistry.load(), environment());
        } catch (OptionException | CliException e) {
            options = Options.defaults(); // mount would have refused this configuration; Daemon.find looks further
        }
        return Path.of(options.get(VolumeOptions.STATE_DIR));
    }

    /** Whether the daemon ended within {@link #DAEMON_EXIT_TIMEOUT}: gone, or a zombie ({@link ProcessState#ended}). */
    private static boolean awaitExit(ProcessHandle daemon) throws InterruptedException {
        long deadline = System.nanoTime() + DAEMON_EXIT_TIMEOUT.toNanos();
        while (!ProcessState.ended(daemon)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(EXIT_POLL.toMillis());
        }
        return true;
    }
}
