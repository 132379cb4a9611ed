package io.strata.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process that is not this one's child has ended. A mount daemon is no child of the
 * commands that wait for it ({@code strata mount} for its mount, {@code strata umount} for its end),
 * so a daemon that ended stays a zombie until init reaps it, and {@link ProcessHandle#isAlive} is
 * true of a zombie. Init may take its time: here (a VM whose init is not systemd) it took 1.5-2 s,
 * all of it in {@code strata umount}'s wait (docs/PERFORMANCE.md, thirty-eighth round); in a
 * container whose first process reaps nothing, forever.
 */
public final class ProcessState {
    private ProcessState() {}

    /** Gone, or a zombie: it holds nothing any more (descriptors, locks, the FUSE device). */
    public static boolean ended(ProcessHandle process) {
        if (!process.isAlive()) {
            return true;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // pid (comm) state ...: comm may hold spaces and parentheses, the state follows the last ')'
            int end = stat.lastIndexOf(')');
            return end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'Z';
        } catch (IOException e) {
            return !process.isAlive(); // gone meanwhile, or no /proc: what the handle says
        }
    }
}
