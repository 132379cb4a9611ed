package io.strata.meta.dump;

import io.strata.meta.VolumeFormat;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.dump.LoadTarget.LinkFix;
import io.strata.meta.dump.LoadTarget.Summary;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Writes a dump into a {@link LoadTarget} as it is read: entries go out in batches, several in
 * flight ({@link WritePipeline}); nlink and the counters are recomputed from what is loaded.
 *
 * <p>What the load keeps while it runs: the path to the current directory (with each level's
 * count of subdirectories: a directory's nlink is 2 plus that count), one bit per inode number
 * seen ({@link InodeBits}), and a small record per inode with more than one name (or whose dumped
 * nlink said so), to count its names. A dumped nlink that disagrees with the count is reported
 * through {@link Progress#warn} and loaded as counted.
 */
final class Loader implements DumpVisitor {
    /** Reports of each kind printed one by one; more are summed up at the end. */
    static final int MAX_REPORTS = 20;

    private final LoadTarget target;
    private final WritePipeline pipeline;
    private final int batchSize;
    private final Progress progress;
    private LoadBatch batch = new LoadBatch();

    private Header header;
    private DumpedInode root;
    private final InodeBits seen = new InodeBits();
    private final InodeBits directories = new InodeBits();
    private final Map<Long, Linked> linked = new HashMap<>();
    private final List<LinkFix> directoryFixes = new ArrayList<>();

    // the current path: directory inode numbers, dumped nlink, subdirectories seen, names
    private long[] dirs = new long[64];
    private int[] dumpedNlinks = new int[64];
    private int[] subdirs = new int[64];
    private final List<String> names = new ArrayList<>();
    private int depth;

    private long inodes;
    private long usedBytes;
    private long maxIno = Inode.ROOT;
    private long entries;
    private long nlinkMismatches;
    private int reports;
    private boolean ended;

    Loader(LoadTarget target, WritePipeline pipeline, int batchSize, Progress progress) {
        this.target = requireNonNull(target, "target is null");
        this.pipeline = requireNonNull(pipeline, "pipeline is null");
        this.batchSize = batchSize;
        this.progress = requireNonNull(progress, "progress is null");
    }

    @Override
    public void header(Header header) {
        this.header = header;
        progress.start("load", header.counters().inodes());
    }

    @Override
    public void directory(String name, DumpedInode dir, boolean primary) throws IOException {
        long ino = dir.ino();
        if (name == null) {
            root = dir;
            seen.set(ino);
            directories.set(ino);
            inodes++;
            push(ino, dir.inode().nlink(), "");
            return;
        }
        if (seen.get(ino)) {
            throw new MalformedDumpException(-1, "directory " + Unicode.printable(pathOf(name)) + " has inode " + ino
                    + ", which appears earlier: a directory has exactly one name");
        }
        if (!primary) {
            report("directory " + pathOf(name) + " (inode " + ino + ") is marked as not its own primary link; "
                    + "a directory's one name is");
        }
        subdirs[depth - 1]++;
        seen.set(ino);
        directories.set(ino);
        inodes++;
        maxIno = Math.max(maxIno, ino);
        batch.add(dir);
        batch.add(new Dentry(dirs[depth - 1], name, ino, InodeType.DIRECTORY), false);
        push(ino, dir.inode().nlink(), name);
        advance();
    }

    @Override
    public void entry(String name, DumpedInode node, boolean primary) throws IOException {
        long ino = node.ino();
        long parent = dirs[depth - 1];
        Inode inode = node.inode();
        if (seen.get(ino)) {
            if (directories.get(ino)) {
                throw new MalformedDumpException(-1, Unicode.printable(pathOf(name)) + " has inode " + ino
                        + ", which is a directory earlier in the dump");
            }
            // another name of an inode written already: count it
            Linked link = linked.get(ino);
            if (link == null) {
                // its first name said nlink 1: the primary link written there stays unless this one claims it
                link = new Linked(1, null);
                link.names = 1;
                link.primaryFound = true;
                linked.put(ino, link);
            }
            link.names++;
            if (primary && !link.primaryFound) {
                link.primaryFound = true;
                link.primaryParent = parent;
                link.primaryName = name;
                link.primaryMoved = true;
            }
            batch.add(new Dentry(parent, name, ino, inode.type()), true);
        } else {
            seen.set(ino);
            inodes++;
            maxIno = Math.max(maxIno, ino);
            if (inode.type() == InodeType.FILE) {
                usedBytes += inode.size();
            }
            if (inode.nlink() != 1 || !primary) {
                Linked link = new Linked(inode.nlink(), pathOf(name));
                link.names = 1;
                link.primaryFound = primary;
                link.primaryParent = parent;
                link.primaryName = name;
                linked.put(ino, link);
            }
            batch.add(node);
            batch.add(new Dentry(parent, name, ino, inode.type()), inode.nlink() > 1);
        }
        advance();
    }

    @Override
    public void endDirectory() throws IOException {
        depth--;
        int nlink = 2 + subdirs[depth];
        long ino = dirs[depth];
        String name = names.remove(names.size() - 1);
        if (nlink != dumpedNlinks[depth]) {
            nlinkMismatches++;
            report("directory " + pathWith(name) + " (inode " + ino + "): dumped nlink " + dumpedNlinks[depth]
                    + ", but it has " + (nlink - 2) + " subdirectories: nlink " + nlink + " loaded");
            if (ino == Inode.ROOT) {
                root = withNlink(root, nlink);
            } else {
                directoryFixes.add(new LinkFix(ino, nlink, dirs[depth - 1], null)); // its one name stays primary
            }
        }
    }

    @Override
    public void end() throws IOException {
        ended = true;
    }

    /** Writes what is left and completes the load; call after the dump was read to its end. */
    LoadResult finish() throws IOException {
        if (!ended || root == null) {
            throw new IllegalStateException("the dump has not been read to its end");
        }
        flush();
        pipeline.await();
        List<LinkFix> fixes = new ArrayList<>(directoryFixes);
        for (Map.Entry<Long, Linked> entry : linked.entrySet()) {
            long ino = entry.getKey();
            Linked link = entry.getValue();
            if (link.names != link.dumpedNlink) {
                nlinkMismatches++;
                report((link.path != null ? link.path : "inode " + ino) + " (inode " + ino + "): dumped nlink "
                        + link.dumpedNlink + ", but it has " + link.names + " names: nlink " + link.names + " loaded");
            }
            if (!link.primaryFound) {
                report((link.path != null ? link.path : "inode " + ino) + " (inode " + ino
                        + "): none of its names is marked as its primary link; this one is now");
            }
            fixes.add(new LinkFix(ino, link.names, link.primaryParent,
                    link.primaryMoved || !link.primaryFound ? link.primaryName : null));
        }
        fixes.sort((a, b) -> Long.compare(a.ino(), b.ino()));
        if (reports > MAX_REPORTS) {
            progress.warn((reports - MAX_REPORTS) + " more problems like the above");
        }
        DumpCounters dumped = header.counters();
        if (dumped.inodes() != inodes || dumped.usedBytes() != usedBytes) {
            progress.warn("the dump's counters say " + dumped.inodes() + " inodes and " + dumped.usedBytes()
                    + " bytes used, its tree has " + inodes + " inodes and " + usedBytes + " bytes: loaded as counted");
        }
        if (!header.secretsRemoved().isEmpty()) {
            progress.warn("the dump was made without the secret settings " + String.join(", ", header.secretsRemoved())
                    + ": set them again on the loaded volume");
        }
        Map<String, String> settings = new TreeMap<>(header.settings());
        settings.remove(VolumeFormat.VERSION_KEY);
        settings.remove(LoadTarget.LOADING_SETTING); // a dump of a volume whose load was cut short
        DumpCounters counters = new DumpCounters(Math.max(dumped.nextInode(), maxIno + 1), inodes, usedBytes);
        target.finish(new Summary(root, fixes, counters, settings));
        progress.finish();
        return new LoadResult(entries, inodes, usedBytes, nlinkMismatches);
    }

    private void advance() throws IOException {
        entries++;
        progress.advance(1);
        if (batch.weight() >= batchSize) {
            flush();
        }
    }

    private void flush() throws IOException {
        if (!batch.isEmpty()) {
            pipeline.submit(batch);
            batch = new LoadBatch();
        }
    }

    private void push(long ino, int dumpedNlink, String name) {
        if (depth == dirs.length) {
            dirs = Arrays.copyOf(dirs, depth * 2);
            dumpedNlinks = Arrays.copyOf(dumpedNlinks, depth * 2);
            subdirs = Arrays.copyOf(subdirs, depth * 2);
        }
        dirs[depth] = ino;
        dumpedNlinks[depth] = dumpedNlink;
        subdirs[depth] = 0;
        names.add(name);
        depth++;
    }

    private void report(String message) {
        reports++;
        if (reports <= MAX_REPORTS) {
            progress.warn(Unicode.printable(message));
        }
    }

    /** The path of {@code name} in the current directory. */
    private String pathOf(String name) {
        StringBuilder path = new StringBuilder();
        for (int i = 1; i < names.size(); i++) {
            path.append('/').append(names.get(i));
        }
        return path.append('/').append(name).toString();
    }

    /** The path of the directory just left, whose name was {@code name}. */
    private String pathWith(String name) {
        return depth == 0 ? "/" : pathOf(name);
    }

    private static DumpedInode withNlink(DumpedInode node, int nlink) {
        Inode i = node.inode();
        return new DumpedInode(new Inode(i.ino(), i.type(), i.mode(), i.uid(), i.gid(), i.atimeNs(), i.mtimeNs(),
                i.ctimeNs(), nlink, i.size(), i.rdev(), i.parent(), i.name(), i.ufsVersion(), i.syncedNs()),
                node.symlinkTarget(), node.xattrs());
    }

    /** What a load did. */
    record LoadResult(long entries, long inodes, long usedBytes, long nlinkMismatches) {}

    /** An inode with more than one name, or whose first name said so or was not its primary link. */
    private static final class Linked {
        final int dumpedNlink;
        /** The path of the first name, for reports. */
        final String path;
        int names;
        boolean primaryFound;
        boolean primaryMoved;
        long primaryParent;
        String primaryName;

        Linked(int dumpedNlink, String path) {
            this.dumpedNlink = dumpedNlink;
            this.path = path;
        }
    }
}
