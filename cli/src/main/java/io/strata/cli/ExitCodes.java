package io.strata.cli;

/** The exit statuses of every {@code strata} command, so scripts can tell bad input from failures. */
public final class ExitCodes {
    /** Done. */
    public static final int OK = 0;
    /** Something failed at run time: the mount did not come up, unmounting failed, I/O errors. */
    public static final int FAILURE = 1;
    /** The input is wrong: unknown or bad option, missing source, unusable mountpoint, bad usage. */
    public static final int BAD_INPUT = 2;
    /** A check found problems that remain: {@code strata fsck} without {@code --repair}, or ones it cannot repair. */
    public static final int PROBLEMS = 3;

    private ExitCodes() {}
}
