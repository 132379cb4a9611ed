package io.strata.cli;

import io.strata.meta.dump.DumpEncoding;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The FILE of {@code strata dump} and {@code strata load}: {@code -} for stdout / stdin, gzip when
 * the name ends in {@code .gz}, a binary dump by default when it ends in {@code .sdump} or
 * {@code .sdump.gz} (a load tells by the content, whatever the name). A dump goes to a temporary file beside FILE and takes FILE's name
 * only when complete, so a failed dump never leaves a cut-off file that looks like a backup.
 */
final class DumpFiles {
    static final String STDIO = "-";
    static final String BINARY_SUFFIX = ".sdump";
    private static final int BUFFER = 1 << 16;

    private DumpFiles() {}

    static boolean gzip(String file) {
        return file.endsWith(".gz");
    }

    /** The encoding a dump to {@code file} gets unless --format says: binary for NAME.sdump[.gz]. */
    static DumpEncoding encoding(String file) {
        String name = gzip(file) ? file.substring(0, file.length() - ".gz".length()) : file;
        return name.endsWith(BINARY_SUFFIX) ? DumpEncoding.BINARY : DumpEncoding.JSON;
    }

    /** Where a dump is read from; a missing or unreadable file is bad input. */
    static InputStream input(String file, InputStream stdin) {
        InputStream in;
        if (file.equals(STDIO)) {
            in = stdin;
        } else {
            try {
                in = Files.newInputStream(Path.of(file));
            } catch (NoSuchFileException e) {
                throw CliException.badInput(file + " does not exist; give a file written by 'strata dump'");
            } catch (AccessDeniedException e) {
                throw CliException.badInput("cannot read " + file + ": permission denied");
            } catch (IOException e) {
                throw CliException.badInput("cannot read " + file + ": " + Messages.describe(e));
            }
        }
        try {
            InputStream buffered = new BufferedInputStream(in, BUFFER);
            return gzip(file) ? new GZIPInputStream(buffered, BUFFER) : buffered;
        } catch (IOException e) {
            throw CliException.badInput(file + " is not a gzip file (" + Messages.describe(e)
                    + "); only names ending in .gz are read as gzip");
        }
    }

    /** A dump being written to FILE (or stdout); {@link Output#commit()} makes it FILE. */
    static Output output(String file, OutputStream stdout) throws IOException {
        if (file.equals(STDIO)) {
            return new Output(wrap(new FilterOutputStream(stdout) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    flush(); // stdout stays open
                }
            }, file), null, null);
        }
        Path target = Path.of(file).toAbsolutePath();
        Path dir = target.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw CliException.badInput("cannot write " + file + ": directory " + dir + " does not exist");
        }
        if (Files.isDirectory(target)) {
            throw CliException.badInput("cannot write " + file + ": it is a directory; give a file name");
        }
        Path temporary;
        try {
            temporary = Files.createTempFile(dir, "." + target.getFileName() + ".", ".partial");
        } catch (AccessDeniedException e) {
            throw CliException.badInput("cannot write " + file + ": permission denied in " + dir);
        }
        return new Output(wrap(Files.newOutputStream(temporary), file), temporary, target);
    }

    private static OutputStream wrap(OutputStream out, String file) throws IOException {
        OutputStream buffered = new BufferedOutputStream(out, BUFFER);
        if (!gzip(file)) {
            return buffered;
        }
        // fastest deflate: a dump is written at hundreds of MB/s, default compression manages a tenth of that
        return new GZIPOutputStream(buffered, BUFFER) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        };
    }

    /** An open dump: write to {@link #stream()}, then {@link #commit()} or {@link #close()} to discard. */
    static final class Output implements AutoCloseable {
        private final OutputStream stream;
        private final Path temporary;
        private final Path target;
        private boolean done;

        Output(OutputStream stream, Path temporary, Path target) {
            this.stream = stream;
            this.temporary = temporary;
            this.target = target;
        }

        OutputStream stream() {
            return stream;
        }

        /** Finishes the stream and puts the file in place. */
        void commit() throws IOException {
            stream.close(); // the gzip trailer, the buffer
            if (temporary != null) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            done = true;
        }

        /** Discards an uncommitted dump. */
        @Override
        public void close() {
            if (done) {
                return;
            }
            try {
                stream.close();
            } catch (IOException ignored) {
                // discarded anyway
            }
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // a leftover .partial file is harmless and says what it is
                }
            }
        }
    }
}
