package io.strata.fuse;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * The kernel's mount table as the command line needs it: is a path mounted, is a FUSE mount
 * stale (its daemon gone), and unmounting with {@code fusermount}, falling back to {@code umount}.
 *
 * <p>Reads {@code /proc/self/mountinfo} (see proc(5)): one mount per line, the mount point in
 * the fifth field with space, tab, newline and backslash written as octal escapes ({@code \040}).
 */
public final class MountPoints {
    private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");
    private static final String NOT_CONNECTED = "Transport endpoint is not connected";
    /** A stat of a live but hung FUSE mount blocks; this bounds how long we wait for one. */
    private static final long STAT_TIMEOUT_MILLIS = 2_000;
    private static final long COMMAND_TIMEOUT_SECONDS = 30;

    private MountPoints() {}

    /**
     * One line of mountinfo: where, what kind, and from what; {@code device} is the mount's device
     * number as {@code MAJOR:MINOR}, the name of its backing device info in {@code /sys/class/bdi}.
     */
    public record Entry(Path mountPoint, String fsType, String source, String device) {
        public Entry {
            requireNonNull(mountPoint, "mountPoint is null");
            requireNonNull(device, "device is null");
            requireNonNull(fsType, "fsType is null");
            requireNonNull(source, "source is null");
        }

        /** {@code fuse}, {@code fuse.<subtype>} or {@code fuseblk}: a mount served by a FUSE daemon. */
        public boolean isFuse() {
            return fsType.equals("fuse") || fsType.equals("fuseblk") || fsType.startsWith("fuse.");
        }
    }

    /** Unmounting failed because files are open or processes run under the mount point. */
    public static final class BusyException extends IOException {
        private static final long serialVersionUID = 1L;

        BusyException(String message) {
            super(message);
        }
    }

    /** Whether anything is mounted at {@code path} (symlinks in its parents resolved). */
    public static boolean isMounted(Path path) {
        return find(path).isPresent();
    }

    /** The topmost mount at {@code path}, if any. */
    public static Optional<Entry> find(Path path) {
        Path target = canonical(path);
        Entry found = null;
        for (Entry entry : table()) {
            if (entry.mountPoint().equals(target)) {
                found = entry; // later lines are mounted on top of earlier ones
            }
        }
        return Optional.ofNullable(found);
    }

    /** Every mount of this process's mount namespace, in mount order. */
    public static List<Entry> table() {
        try {
            // decoded leniently: a mount point's name need not be valid UTF-8
            return parse(new String(Files.readAllBytes(MOUNTINFO), StandardCharsets.UTF_8).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + MOUNTINFO, e);
        }
    }

    /**
     * Whether {@code path} is a FUSE mount whose daemon is gone: stat or opendir answers "Transport
     * endpoint is not connected". A live mount that does not answer within a couple of seconds is not
     * reported stale (it may just be slow).
     */
    public static boolean isStale(Path path) {
        Path target = path.toAbsolutePath().normalize();
        CompletableFuture<Boolean> stat = new CompletableFuture<>();
        Thread statter = new Thread(() -> stat.complete(statFailsNotConnected(target)), "strata-stat");
        statter.setDaemon(true); // a stat stuck in the kernel must not keep the JVM alive
        statter.start();
        try {
            return stat.get(STAT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            return false;
        }
    }

    /** Lazily unmounts a stale mount ({@code fusermount -u -z}, else {@code umount -l}). */
    public static void clearStale(Path path) throws IOException {
        unmount(path, true);
        if (isStale(path)) {
            throw new IOException("the stale mount at " + path + " is still there after unmounting it");
        }
    }

    /** Unmounts {@code path}: {@code fusermount -u}, falling back to {@code umount}. */
    public static void unmount(Path path) throws IOException {
        unmount(path, false);
    }

    /**
     * Unmounts {@code path} with {@code fusermount -u} ({@code -z} when lazy), falling back to
     * {@code umount} ({@code -l}) when fusermount is missing or fails for another reason than busy.
     * Succeeds when the path is no longer mounted afterwards, whoever unmounted it.
     *
     * @throws BusyException when files are open under the mount point and {@code lazy} is false
     * @throws IOException with the tool's own message otherwise
     */
    public static void unmount(Path path, boolean lazy) throws IOException {
        String target = path.toAbsolutePath().normalize().toString();
        List<String> fusermount = new ArrayList<>(List.of("fusermount", "-u"));
        List<String> umount = new ArrayList<>(List.of("umount"));
        if (lazy) {
            fusermount.add("-z");
            umount.add("-l");
        }
        fusermount.add(target);
        umount.add(target);

        Result first = run(fusermount);
        if (first.ok()) {
            return;
        }
        if (first.busy()) {
            throw new BusyException(first.output());
        }
        if (!isMounted(path)) {
            return; // unmounted meanwhile, e.g. by jnr-fuse's own shutdown hook racing ours
        }
        Result second = run(umount);
        if (second.ok() || !isMounted(path)) {
            return;
        }
        if (second.busy()) {
            throw new BusyException(second.output());
        }
        throw new IOException(first.started() ? first.output() : second.output());
    }

    static List<Entry> parse(List<String> lines) {
        List<Entry> entries = new ArrayList<>(lines.size());
        for (String line : lines) {
            parseLine(line).ifPresent(entries::add);
        }
        return entries;
    }

    /**
     * {@code 36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw}: the device is
     * field 3, the mount point field 5; after the optional fields and the {@code -} separator come the file
     * system type and the source.
     */
    static Optional<Entry> parseLine(String line) {
        String[] fields = line.trim().split(" ");
        if (fields.length < 7) {
            return Optional.empty();
        }
        int separator = -1;
        for (int i = 6; i < fields.length; i++) {
            if (fields[i].equals("-")) {
                separator = i;
                break;
            }
        }
        if (separator < 0 || separator + 1 >= fields.length) {
            return Optional.empty();
        }
        String source = separator + 2 < fields.length ? unescape(fields[separator + 2]) : "";
        return Optional.of(new Entry(Path.of(unescape(fields[4])), unescape(fields[separator + 1]), source,
                fields[2]));
    }

    /** Decodes mountinfo's octal escapes ({@code \040} space, {@code \011} tab, {@code \134} backslash). */
    static String unescape(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(field.length());
        byte[] raw = field.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '\\' && i + 3 < raw.length && isOctal(raw[i + 1]) && isOctal(raw[i + 2])
                    && isOctal(raw[i + 3])) {
                bytes.write(((raw[i + 1] - '0') << 6) | ((raw[i + 2] - '0') << 3) | (raw[i + 3] - '0'));
                i += 3;
            } else {
                bytes.write(raw[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static boolean isOctal(byte b) {
        return b >= '0' && b <= '7';
    }

    /**
     * The path as the kernel lists it: symlinks resolved. The last component is not followed
     * when it cannot be (a stale mount answers ENOTCONN), only its parents are.
     */
    static Path canonical(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        try {
            return absolute.toRealPath();
        } catch (IOException e) {
            Path parent = absolute.getParent();
            if (parent == null) {
                return absolute;
            }
            try {
                return parent.toRealPath().resolve(absolute.getFileName());
            } catch (IOException ignored) {
                return absolute;
            }
        }
    }

    /**
     * stat, then opendir: the kernel may answer stat from its attribute cache for up to
     * attr_timeout after the daemon died, but opendir always asks the daemon.
     */
    private static boolean statFailsNotConnected(Path path) {
        try {
            if (Files.readAttributes(path, BasicFileAttributes.class).isDirectory()) {
                Files.newDirectoryStream(path).close();
            }
            return false;
        } catch (NoSuchFileException e) {
            return false;
        } catch (FileSystemException e) {
            return String.valueOf(e.getMessage()).contains(NOT_CONNECTED)
                    || NOT_CONNECTED.equals(e.getReason());
        } catch (IOException e) {
            return String.valueOf(e.getMessage()).contains(NOT_CONNECTED);
        }
    }

    /** What running a command produced: whether it started, its exit status and its output. */
    private record Result(boolean started, int status, String output) {
        boolean ok() {
            return started && status == 0;
        }

        boolean busy() {
            return started && (output.contains("busy") || output.contains("EBUSY"));
        }
    }

    private static Result run(List<String> command) {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            return new Result(false, -1, command.get(0) + ": " + e.getMessage());
        }
        try (InputStream in = process.getInputStream()) {
            String output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(true, -1, String.join(" ", command) + " did not finish within "
                        + COMMAND_TIMEOUT_SECONDS + "s");
            }
            int status = process.exitValue();
            if (output.isEmpty()) {
                output = String.join(" ", command) + " exited with status " + status;
            }
            return new Result(true, status, firstLine(output));
        } catch (IOException e) {
            return new Result(true, -1, command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return new Result(true, -1, command.get(0) + " interrupted");
        }
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline).strip();
    }
}
