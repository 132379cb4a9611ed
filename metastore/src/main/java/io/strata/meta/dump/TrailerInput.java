package io.strata.meta.dump;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * A binary dump's document, as the parser reads it: the file without its last
 * {@value DumpTrailer#SIZE} bytes, which are held back until the end of the input and then read
 * as the {@link DumpTrailer}. Checks, at the end, that the trailer is there and whole, and that
 * the document has the length and CRC32C it records; the counts are checked by
 * {@link #verify(EntryCounts)} once the reader has counted. Every refusal is a
 * {@link MalformedDumpException} at the byte where the document ended.
 */
final class TrailerInput extends InputStream {
    private static final int BUFFER = 1 << 16;

    private final InputStream in;
    private final CRC32C crc = new CRC32C();
    // bytes read from in and not yet passed on: buffer[start, end), of which the last SIZE may be the trailer
    private final byte[] buffer = new byte[BUFFER + DumpTrailer.SIZE];
    private int start;
    private int end;
    private boolean endOfInput;
    private long passed;
    private DumpTrailer trailer;

    TrailerInput(InputStream in) {
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!endOfInput && end - start <= DumpTrailer.SIZE) {
            fill();
        }
        int available = end - start - DumpTrailer.SIZE;
        if (available <= 0) {
            readTrailer();
            return -1;
        }
        int n = Math.min(len, available);
        System.arraycopy(buffer, start, b, off, n);
        crc.update(buffer, start, n);
        start += n;
        passed += n;
        return n;
    }

    private void fill() throws IOException {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        int n = in.read(buffer, end, buffer.length - end);
        if (n < 0) {
            endOfInput = true;
        } else {
            end += n;
        }
    }

    /** At the end of the input: the held-back bytes must be a trailer that matches the document. */
    private void readTrailer() throws MalformedDumpException {
        if (trailer != null) {
            return;
        }
        byte[] tail = Arrays.copyOfRange(buffer, start, end);
        long fileLength = passed + tail.length;
        if (!DumpTrailer.startsLikeOne(tail)) {
            throw new MalformedDumpException(fileLength, "the dump ends at byte " + fileLength
                    + " before its trailer: truncated, or bytes were added after it; a binary dump ends with " + DumpTrailer.SIZE
                    + " bytes that start with \"SDUMPEND\" (write it again with strata dump, or use a whole copy)");
        }
        DumpTrailer found = DumpTrailer.parse(tail);
        if (found == null) {
            throw new MalformedDumpException(passed, "the trailer at byte " + passed
                    + " is corrupt (its own CRC32C does not match): use a whole copy of the dump");
        }
        if (found.length() != passed) {
            throw new MalformedDumpException(passed, "the trailer at byte " + passed + " says the dump is "
                    + found.length() + " bytes long: " + (found.length() > passed ? "bytes are missing" : "bytes were added")
                    + "; use a whole copy of the dump");
        }
        int actual = (int) crc.getValue();
        if (found.crc() != actual) {
            throw new MalformedDumpException(passed, String.format(Locale.ROOT, "bytes 0 to %d have CRC32C %08x, the"
                    + " trailer says %08x: the dump is corrupt; use a whole copy of it", passed - 1, actual, found.crc()));
        }
        trailer = found;
    }

    /**
     * After the parser has read the whole document: reads to the end of the input (the trailer),
     * and checks the entries the reader counted against the trailer's.
     */
    void verify(EntryCounts counted) throws IOException {
        long documentEnd = passed;
        byte[] rest = new byte[BUFFER];
        if (read(rest, 0, rest.length) >= 0) {
            throw new MalformedDumpException(documentEnd, "unexpected bytes after the end of the dump, before its"
                    + " trailer: the dump is corrupt; use a whole copy of it");
        }
        if (!trailer.entries().equals(counted)) {
            throw new MalformedDumpException(passed, "the trailer counts entries " + trailer.entries()
                    + "; the dump has " + counted + ": the dump is corrupt; use a whole copy of it");
        }
    }
}
