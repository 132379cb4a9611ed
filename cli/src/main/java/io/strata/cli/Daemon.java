package io.strata.cli;

import io.strata.fuse.MountPoints;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The background side of {@code strata mount}: the daemon's command line, environment, log and
 * pid files, and the wait for its mount to appear.
 *
 * <p>The daemon is this same program ({@code mount --foreground SOURCE MOUNTPOINT}) in a new
 * session (via {@code setsid} when present), stdin from /dev/null and stdout+stderr appended to
 * its log. The options the parent bound travel in {@link #OPTIONS_ENV}, never on argv, so secrets
 * never show in {@code ps}; the daemon binds from that variable alone so that nothing is bound twice.
 */
final class Daemon {
    /** The parent's bound options, as properties text. */
    static final String OPTIONS_ENV = "STRATA_DAEMON_OPTIONS";
    /** The daemon's log file, so that its "mounted" line can name it. */
    static final String LOG_ENV = "STRATA_DAEMON_LOG";

    private static final Duration POLL = Duration.ofMillis(50);
    /** How long after the kernel lists the mount we wait for the daemon's "mounted" line. */
    private static final Duration MOUNTED_LINE_GRACE = Duration.ofSeconds(5);

    private Daemon() {}

    /** What the wait for a daemon's mount ended with: its "mounted" line, or its error line. */
    record Outcome(boolean mounted, String line) {}

    /** Properties text of {@code options} ({@code key=value} lines, escaped as {@link Properties} does). */
    static String encode(Map<String, String> options) {
        Properties properties = new Properties();
        properties.putAll(options);
        StringWriter text = new StringWriter();
        try {
            properties.store(text, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Properties.store starts with a date comment; drop it so the text is stable.
        return text.toString().lines().filter(line -> !line.startsWith("#"))
                .reduce(new StringBuilder(), (out, line) -> out.append(line).append('\n'), StringBuilder::append)
                .toString();
    }

    static Map<String, String> decode(String text) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> options = new TreeMap<>();
        properties.stringPropertyNames().forEach(key -> options.put(key, properties.getProperty(key)));
        return options;
    }

    /**
     * A file name for a mountpoint: its path without the leading slash, {@code /} as {@code -},
     * other unusual characters as {@code _} ({@code /mnt/my data} is {@code mnt-my_data}).
     */
    static String name(Path mountPoint) {
        String path = mountPoint.toAbsolutePath().normalize().toString();
        String trimmed = path.replaceAll("^/+", "");
        if (trimmed.isEmpty()) {
            return "root";
        }
        return trimmed.replace('/', '-').replaceAll("[^A-Za-z0-9._-]", "_");
    }

    static Path logFile(Path stateDir, Path mountPoint) {
        return stateDir.resolve("logs").resolve(name(mountPoint) + ".log");
    }

    static Path pidFile(Path stateDir, Path mountPoint) {
        return stateDir.resolve("run").resolve(name(mountPoint) + ".pid");
    }

    /**
     * {@code [setsid] java <this JVM's options> <this program> mount --foreground SOURCE MP}, where
     * the program is launched as this one was ({@link #program}).
     */
    static List<String> command(Path source, Path mountPoint) {
        return command(source.toString(), mountPoint);
    }

    /** The same for a source as the user wrote it (a directory, or an s3:// URI). */
    static List<String> command(String source, Path mountPoint) {
        List<String> command = new ArrayList<>();
        setsid().ifPresent(setsid -> command.add(setsid.toString()));
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // a debugger's port can only be bound once
            if (!argument.startsWith("-agentlib:jdwp") && !argument.startsWith("-Xrunjdwp")) {
                command.add(argument);
            }
        }
        command.addAll(program(System.getProperty("java.class.path"), System.getProperty("sun.java.command", "")));
        command.addAll(List.of("mount", "--foreground", source, mountPoint.toString()));
        return command;
    }

    /**
     * Starts the daemon detached from this process: a new session, working directory {@code /}
     * (so it keeps no directory busy), stdin from /dev/null, output appended to {@code log}.
     *
     * <p>A shell starts it in the background and exits at once, reporting its pid, so the daemon is
     * not this process's child. A JVM with a live child waits 0.3 s at exit: the thread that would
     * reap the child sits in native code, and HotSpot's exit waits for such threads to stop that long.
     * Every background mount paid it after its mount was ready (docs/PERFORMANCE.md, thirty-eighth
     * round). The price is the daemon's exit status, which only a parent learns: a daemon that dies
     * is reported by its log.
     */
    static Started start(List<String> command, Map<String, String> options, Path log)
            throws IOException, InterruptedException {
        List<String> launch = new ArrayList<>(List.of("/bin/sh", "-c",
                "\"$@\" </dev/null >>\"$" + LOG_ENV + "\" 2>&1 & echo $!", "strata-launch"));
        launch.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(launch)
                .directory(new File("/"))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true);
        builder.environment().putAll(environment(options, log));
        Process launcher = builder.start();
        String reported;
        try (InputStream out = launcher.getInputStream()) {
            reported = new String(out.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
        int status = launcher.waitFor();
        if (status != 0 || !reported.matches("[0-9]+")) {
            throw new IOException("the shell that starts it exited with status " + status + ": " + reported);
        }
        long pid = Long.parseLong(reported);
        return new Started(pid, ProcessHandle.of(pid));
    }

    /** A daemon as started: its pid, and its handle unless it had ended before it was looked for. */
    record Started(long pid, Optional<ProcessHandle> handle) {
        static Started of(ProcessHandle process) {
            return new Started(process.pid(), Optional.of(process));
        }

        boolean isAlive() {
            return handle.map(process -> !ProcessState.ended(process)).orElse(false);
        }

        void stop() {
            handle.ifPresent(ProcessHandle::destroy);
        }
    }

    /**
     * Waits until the kernel lists {@code mountPoint} and the daemon has printed its "mounted"
     * line, the daemon exits, or {@code timeout} passes (then the daemon is stopped).
     *
     * @param logOffset where this daemon's part of the (appended) log starts
     */
    static Outcome awaitMount(Started daemon, Path mountPoint, Path log, long logOffset, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!daemon.isAlive()) {
                return new Outcome(false, errorLine(readFrom(log, logOffset))
                        .orElse("the daemon exited; see " + log));
            }
            if (MountPoints.isMounted(mountPoint)) {
                long graceEnd = System.nanoTime() + MOUNTED_LINE_GRACE.toNanos();
                while (System.nanoTime() < graceEnd) {
                    Optional<String> line = mountedLine(readFrom(log, logOffset));
                    if (line.isPresent()) {
                        return new Outcome(true, line.get());
                    }
                    if (!daemon.isAlive()) {
                        break;
                    }
                    Thread.sleep(POLL.toMillis());
                }
                return new Outcome(true, null);
            }
            if (System.nanoTime() > deadline) {
                daemon.stop();
                return new Outcome(false, "the mount did not appear within " + format(timeout)
                        + ", so the daemon was stopped; see " + log);
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private static String format(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
    }

    /** The lines of {@code log} from {@code offset} on (decoded leniently). */
    static List<String> readFrom(Path log, long offset) {
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size <= offset) {
                return List.of();
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size - offset, 1 << 20));
            channel.read(buffer, Math.max(offset, size - buffer.capacity()));
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The daemon's "mounted ..." line, which the foreground mode prints once the mount is ready. */
    static Optional<String> mountedLine(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith(MountCommand.MOUNTED_PREFIX)) {
                return Optional.of(lines.get(i));
            }
        }
        return Optional.empty();
    }

    /**
     * The daemon's reason for failing: its last {@code strata: } line (foreground mode reports
     * every failure as one), without the prefix; else the last line that is not part of a stack trace.
     */
    static Optional<String> errorLine(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            String line = lines.get(i).strip();
            if (line.startsWith("strata: ")) {
                String reason = line.substring("strata: ".length());
                return Optional.of(reason.startsWith(MountCommand.FAILED_PREFIX)
                        ? reason.substring(MountCommand.FAILED_PREFIX.length()) : reason);
            }
        }
        for (int i = lines.size() - 1; i >= 0; i--) {
            String line = lines.get(i);
            if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
                return Optional.of(line.strip());
            }
        }
        return Optional.empty();
    }

    /** Writes this process's pid; the file is removed by {@link #removePidFile}. */
    static void writePidFile(Path pidFile) throws IOException {
        Files.createDirectories(pidFile.getParent());
        Files.writeString(pidFile, ProcessHandle.current().pid() + "\n");
    }

    /** Removes the pid file if it still names this process (a later daemon may have replaced it). */
    static void removePidFile(Path pidFile) {
        try {
            if (readPid(pidFile).orElse(-1L) == ProcessHandle.current().pid()) {
                Files.deleteIfExists(pidFile);
            }
        } catch (IOException ignored) {
            // a leftover pid file names a dead process, which readers check for
        }
    }

    static Optional<Long> readPid(Path pidFile) {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The live daemon serving {@code mountPoint}: the process in its pid file, else any
     * {@code strata mount} process whose arguments name the mountpoint (one mounted with another
     * {@code state_dir}, or run in the foreground from a shell).
     */
    static Optional<ProcessHandle> find(Path stateDir, Path mountPoint) {
        Optional<ProcessHandle> fromPidFile = readPid(pidFile(stateDir, mountPoint))
                .flatMap(ProcessHandle::of)
                .filter(process -> !ProcessState.ended(process))
                .filter(process -> servesOrUnknown(process, mountPoint));
        if (fromPidFile.isPresent()) {
            return fromPidFile;
        }
        try (Stream<ProcessHandle> processes = ProcessHandle.allProcesses()) {
            return processes.filter(process -> process.pid() != ProcessHandle.current().pid())
                    .filter(process -> serves(process, mountPoint))
                    .findFirst();
        }
    }

    private static boolean servesOrUnknown(ProcessHandle process, Path mountPoint) {
        return process.info().arguments().isEmpty() || serves(process, mountPoint);
    }

    private static boolean serves(ProcessHandle process, Path mountPoint) {
        Optional<String[]> arguments = process.info().arguments();
        if (arguments.isEmpty()) {
            return false;
        }
        List<String> args = List.of(arguments.get());
        int main = args.indexOf(Main.class.getName());
        int jar = args.indexOf("-jar");
        int start = main >= 0 ? main + 1 : jar >= 0 ? jar + 2 : -1;
        if (start < 0 || start >= args.size()) {
            return false;
        }
        List<String> strataArgs = args.subList(start, args.size());
        return strataArgs.contains("mount") && strataArgs.contains(mountPoint.toAbsolutePath().normalize().toString());
    }

    private static Optional<Path> setsid() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : (path + ":/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "setsid");
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * How the daemon names this program: {@code -jar JAR} when this JVM was started with
     * {@code -jar} (its class path is then the jar alone, and the launcher's command starts with it),
     * else {@code -cp CLASSPATH io.strata.cli.Main}. A daemon started from the jar with {@code -cp}
     * would lose what only {@code -jar} applies, the manifest's {@code Add-Opens}: without them the
     * kernel transport cannot reach a page file's descriptor, so every background mount copied the
     * reads that a foreground one splices (docs/PERFORMANCE.md, thirty-eighth round). Paths are made
     * absolute: the daemon runs in {@code /}.
     *
     * @param classPath this JVM's {@code java.class.path}
     * @param javaCommand this JVM's {@code sun.java.command}: the main class or the jar as the
     *        launcher was given it, then the program's arguments
     */
    static List<String> program(String classPath, String javaCommand) {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                entries.add(entry);
            }
        }
        if (entries.size() == 1 && entries.get(0).endsWith(".jar")
                && (javaCommand.equals(entries.get(0)) || javaCommand.startsWith(entries.get(0) + " "))) {
            return List.of("-jar", absolute(entries.get(0)));
        }
        return List.of("-cp", String.join(File.pathSeparator, entries.stream().map(Daemon::absolute).toList()),
                Main.class.getName());
    }

    private static String absolute(String path) {
        return Path.of(path).toAbsolutePath().normalize().toString();
    }

    /** The variables the daemon gets on top of this process's environment. */
    static Map<String, String> environment(Map<String, String> options, Path log) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(OPTIONS_ENV, encode(options));
        env.put(LOG_ENV, log.toString());
        return env;
    }
}
