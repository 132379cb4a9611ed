package io.strata.fuse.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CPUs this JVM's threads may use, as the kernel tells them ({@code Cpus_allowed_list} in
 * {@code /proc/<task>/status}): what tests of {@link CompilerThreads} check against, read apart
 * from the calls the class makes.
 */
public final class ThreadCpus {
    private ThreadCpus() {}

    /** The CPUs of /proc/{@code task}: "self" (the main thread), "thread-self", "self/task/TID". */
    public static BitSet of(String task) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + task + "/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                BitSet cpus = new BitSet();
                for (String range : line.substring(line.indexOf(':') + 1).strip().split(",")) { // "0-1,3"
                    String[] ends = range.split("-");
                    int from = Integer.parseInt(ends[0]);
                    cpus.set(from, (ends.length == 1 ? from : Integer.parseInt(ends[1])) + 1);
                }
                return cpus;
            }
        }
        throw new IOException("no Cpus_allowed_list in /proc/" + task + "/status");
    }

    /** The CPUs of {@code task}, as {@link #of}; the test is skipped where there are fewer than 2. */
    public static BitSet assumeTwoOrMore(String task) throws IOException {
        BitSet cpus = of(task);
        assumeTrue(cpus.cardinality() >= 2, "needs 2 CPUs, /proc/" + task + " may use " + cpus);
        return cpus;
    }

    /** Each HotSpot compiler thread's CPUs, by thread id. */
    public static Map<Integer, BitSet> ofCompilers() throws IOException {
        Map<Integer, BitSet> cpus = new LinkedHashMap<>();
        for (int tid : CompilerThreads.compilerThreads()) {
            cpus.put(tid, of("self/task/" + tid));
        }
        return cpus;
    }

    /** Asserts that each compiler thread of {@code before} that still runs has those CPUs again. */
    public static void assertCompilersHave(Map<Integer, BitSet> before) throws IOException {
        Map<Integer, BitSet> now = ofCompilers();
        before.forEach((tid, cpus) -> {
            if (now.containsKey(tid)) {
                assertEquals(cpus, now.get(tid), "compiler thread " + tid);
            }
        });
    }
}
