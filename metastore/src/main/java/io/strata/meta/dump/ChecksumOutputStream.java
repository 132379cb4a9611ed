package io.strata.meta.dump;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/** Passes bytes on, counting them and their CRC32C: a binary dump's document, for its trailer. */
final class ChecksumOutputStream extends FilterOutputStream {
    private final CRC32C crc = new CRC32C();
    private long length;

    ChecksumOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        crc.update(b);
        length++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        crc.update(b, off, len);
        length += len;
    }

    @Override
    public void close() throws IOException {
        flush(); // the trailer follows on the same stream, which the caller closes
    }

    long length() {
        return length;
    }

    int crc() {
        return (int) crc.getValue();
    }
}
