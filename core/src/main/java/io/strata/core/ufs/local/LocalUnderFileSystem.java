package io.strata.core.ufs.local;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The under storage over a local directory: the volume path {@code a/b} is the file
 * {@code <root>/a/b}. See the package documentation for what is and is not exposed.
 *
 * <p>Stateless apart from its root, so safe for use from any number of threads.
 */
public final class LocalUnderFileSystem implements UnderFileSystem {
    private static final OpenOption[] READ = {StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS};
    private static final OpenOption[] READ_WRITE = {
            StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS};
    private static final OpenOption[] CREATE = {
            StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS};
    private static final OpenOption[] CREATE_NEW = {
            StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS};

    private final Path root;
    private final URI uri;
    private final LocalAttributes attributes;
    private final FileStore store;

    /**
     * @param root an existing directory; relative paths are taken from the working directory
     * @throws FsException ENOENT if {@code root} does not exist, ENOTDIR if it is not a directory
     */
    public LocalUnderFileSystem(Path root) throws IOException {
        requireNonNull(root, "root is null");
        Path absolute = root.toAbsolutePath().normalize();
        if (!Files.exists(absolute)) {
            throw new FsException(FsError.ENOENT, "under storage directory does not exist: " + absolute);
        }
        if (!Files.isDirectory(absolute)) {
            throw new FsException(FsError.ENOTDIR, "under storage is not a directory: " + absolute);
        }
        this.root = absolute;
        this.uri = uriOf(absolute);
        this.attributes = LocalAttributes.forFileSystem(absolute.getFileSystem());
        this.store = Files.getFileStore(absolute);
    }

    /** The {@code file:} URI of an absolute path, without a trailing slash (except for "/"). */
    public static URI uriOf(Path absolute) {
        if (!absolute.isAbsolute()) {
            throw new IllegalArgumentException("path is not absolute: " + absolute);
        }
        // Path.toUri escapes every byte a URI cannot hold, '%' included; it adds a '/' for directories.
        String text = absolute.toUri().toString();
        return text.endsWith("/") && absolute.getNameCount() > 0
                ? URI.create(text.substring(0, text.length() - 1))
                : URI.create(text);
    }

    /** The local directory this storage is over. */
    public Path root() {
        return root;
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public Optional<UfsStatus> status(String path) throws IOException {
        return attributes.read(resolve(path), nameOf(path));
    }

    @Override
    public void list(String dir, Consumer<UfsStatus> sink) throws IOException {
        requireNonNull(sink, "sink is null");
        Path directory = resolve(dir);
        BasicFileAttributes attrs = exposedAttributes(directory, "list", dir);
        if (!attrs.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "list '" + dir + "'");
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                attributes.read(entry, entry.getFileName().toString()).ifPresent(sink);
            }
        } catch (DirectoryIteratorException e) {
            throw LocalErrors.translate(e.getCause(), "list", dir);
        } catch (IOException e) {
            throw LocalErrors.translate(e, "list", dir);
        }
    }

    @Override
    public UfsFile open(String path, boolean writable) throws IOException {
        Path file = resolve(path);
        BasicFileAttributes attrs = exposedAttributes(file, "open", path);
        if (attrs.isDirectory()) {
            throw new FsException(FsError.EISDIR, "open '" + path + "'");
        }
        try {
            FileChannel channel = FileChannel.open(file, writable ? READ_WRITE : READ);
            return new LocalUfsFile(file, path, channel, writable,
                    LocalAttributes.mtimeNs(attrs.lastModifiedTime()), false);
        } catch (IOException e) {
            throw LocalErrors.translate(e, "open", path);
        }
    }

    @Override
    public UfsFile create(String path) throws IOException {
        Path file = resolve(path);
        // A new name, the common case, is one open(2) with O_EXCL: looking first would cost a
        // miss, which the JDK reports by throwing (with its stack trace) on every create.
        try {
            return new LocalUfsFile(file, path, FileChannel.open(file, CREATE_NEW), true, Long.MIN_VALUE, false);
        } catch (FileAlreadyExistsException e) {
            // something is there: replace it as below, if it is a file
        } catch (IOException e) {
            throw LocalErrors.translate(e, "create", path);
        }
        BasicFileAttributes attrs = lstat(file, "create", path);
        long seenMtimeNs = Long.MIN_VALUE;
        if (attrs != null) {
            if (attrs.isDirectory()) {
                throw new FsException(FsError.EISDIR, "create '" + path + "'");
            }
            if (!attrs.isRegularFile()) {
                throw new FsException(FsError.EEXIST, "create '" + path
                        + "': a symbolic link or special file is in the way (Strata does not expose those)");
            }
            seenMtimeNs = LocalAttributes.mtimeNs(attrs.lastModifiedTime());
        }
        try {
            FileChannel channel = FileChannel.open(file, CREATE);
            return new LocalUfsFile(file, path, channel, true, seenMtimeNs, attrs != null);
        } catch (IOException e) {
            throw LocalErrors.translate(e, "create", path);
        }
    }

    @Override
    public void mkdir(String path) throws IOException {
        Path dir = resolve(path);
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            BasicFileAttributes attrs = lstat(dir, "mkdir", path);
            if (attrs == null || !attrs.isDirectory()) {
                throw new FsException(FsError.EEXIST, "mkdir '" + path + "'", e);
            }
        } catch (IOException e) {
            throw LocalErrors.translate(e, "mkdir", path);
        }
    }

    @Override
    public void deleteFile(String path) throws IOException {
        Path file = resolve(path);
        BasicFileAttributes attrs = lstat(file, "delete", path);
        if (attrs == null || !LocalAttributes.exposed(attrs)) {
            return;
        }
        if (attrs.isDirectory()) {
            throw new FsException(FsError.EISDIR, "delete '" + path + "'");
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw LocalErrors.translate(e, "delete", path);
        }
    }

    @Override
    public void deleteDirectory(String path) throws IOException {
        Path dir = resolve(path);
        if (path.isEmpty()) {
            throw new IllegalArgumentException("cannot delete the volume root");
        }
        BasicFileAttributes attrs = lstat(dir, "rmdir", path);
        if (attrs == null || !LocalAttributes.exposed(attrs)) {
            return;
        }
        if (!attrs.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "rmdir '" + path + "'");
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            throw LocalErrors.translate(e, "rmdir", path);
        }
    }

    /**
     * One rename(2): atomic, replaces a file (or an empty directory) at {@code dst}, moves a whole
     * tree at once. Only if the move crosses a mount point inside the root does a file fall back
     * to copy and delete; a directory then fails with EXDEV.
     */
    @Override
    public void rename(String src, String dst) throws IOException {
        Path from = resolve(src);
        Path to = resolve(dst);
        if (src.isEmpty() || dst.isEmpty()) {
            throw new IllegalArgumentException("cannot rename the volume root");
        }
        String what = "rename '" + src + "' to '" + dst + "'";
        BasicFileAttributes attrs = exposedAttributes(from, "rename", src);
        if (from.equals(to)) {
            return;
        }
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            if (attrs.isDirectory()) {
                throw new FsException(FsError.EXDEV, what + ": crosses a mount point under the root", e);
            }
            try {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException again) {
                throw LocalErrors.translate(again, what);
            }
        } catch (IOException e) {
            throw LocalErrors.translate(e, what);
        }
    }

    @Override
    public Optional<Capacity> capacity() throws IOException {
        return Optional.of(new Capacity(store.getTotalSpace(), store.getUsableSpace()));
    }

    /** Nothing to release: files are closed by their own handles. */
    @Override
    public void close() {}

    @Override
    public String toString() {
        return "LocalUnderFileSystem[" + root + "]";
    }

    /**
     * The local path of a volume path, refusing anything that could leave the root: a leading
     * '/', '.' and '..' components, and empty components.
     */
    Path resolve(String path) {
        requireNonNull(path, "path is null");
        if (path.isEmpty()) {
            return root;
        }
        int start = 0;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            int length = end - start;
            if (length == 0 || (length == 1 && path.charAt(start) == '.')
                    || (length == 2 && path.startsWith("..", start))) {
                throw new IllegalArgumentException("bad under storage path '" + path
                        + "': expected names separated by '/', relative to the root, without '.' or '..'");
            }
            start = end + 1;
        }
        Path resolved = root.resolve(path);
        if (!resolved.startsWith(root)) {
            throw new IllegalArgumentException("under storage path leaves the root: '" + path + "'");
        }
        return resolved;
    }

    private static String nameOf(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The entry's attributes without following links, or null if it does not exist. */
    private static BasicFileAttributes lstat(Path file, String operation, String path) throws IOException {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw LocalErrors.translate(e, operation, path);
        }
    }

    /** The attributes of an existing regular file or directory; ENOENT for anything else. */
    private static BasicFileAttributes exposedAttributes(Path file, String operation, String path)
            throws IOException {
        BasicFileAttributes attrs = lstat(file, operation, path);
        if (attrs == null || !LocalAttributes.exposed(attrs)) {
            throw new FsException(FsError.ENOENT, operation + " '" + path + "'");
        }
        return attrs;
    }
}
