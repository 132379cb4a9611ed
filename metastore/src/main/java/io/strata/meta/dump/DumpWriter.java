package io.strata.meta.dump;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.dataformat.smile.SmileConstants;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.dump.DumpedInode.Xattr;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Writes a dump (the format is the header of {@link DumpFormat}) with a streaming
 * {@link JsonGenerator}: the caller hands it the header, then the tree depth first, one entry at a
 * time; nothing is kept but the generator's nesting. The same calls write JSON or Smile
 * ({@link DumpEncoding}); a binary dump differs only in its strings ({@link BinaryStrings}), in
 * having no line breaks, and in the {@link DumpTrailer} after it.
 */
final class DumpWriter implements Closeable {
    /** Deeper than any path the kernel passes (4096 bytes); each directory level nests twice. */
    static final int MAX_NESTING = 1 << 16;

    // the entries' member names, quoted and encoded once: a million entries write fourteen million
    private static final SerializedString NAME = new SerializedString(DumpFormat.NAME);
    private static final SerializedString INO = new SerializedString(DumpFormat.INO);
    private static final SerializedString TYPE = new SerializedString(DumpFormat.TYPE);
    private static final SerializedString MODE = new SerializedString(DumpFormat.MODE);
    private static final SerializedString UID = new SerializedString(DumpFormat.UID);
    private static final SerializedString GID = new SerializedString(DumpFormat.GID);
    private static final SerializedString ATIME = new SerializedString(DumpFormat.ATIME);
    private static final SerializedString MTIME = new SerializedString(DumpFormat.MTIME);
    private static final SerializedString CTIME = new SerializedString(DumpFormat.CTIME);
    private static final SerializedString NLINK = new SerializedString(DumpFormat.NLINK);
    private static final SerializedString SIZE = new SerializedString(DumpFormat.SIZE);
    private static final SerializedString RDEV = new SerializedString(DumpFormat.RDEV);
    private static final SerializedString PRIMARY = new SerializedString(DumpFormat.PRIMARY);
    private static final SerializedString UFS_VERSION = new SerializedString(DumpFormat.UFS_VERSION);
    private static final SerializedString SYNCED = new SerializedString(DumpFormat.SYNCED);
    private static final SerializedString TARGET = new SerializedString(DumpFormat.TARGET);
    private static final SerializedString XATTRS = new SerializedString(DumpFormat.XATTRS);
    private static final SerializedString ENTRIES = new SerializedString(DumpFormat.ENTRIES);

    private final JsonGenerator json;
    private final OneEntryPerLine printer = new OneEntryPerLine();
    private final OutputStream out;
    /** Binary only: the document's bytes on their way to {@link #out}, counted for the trailer. */
    private final ChecksumOutputStream checksummed;
    private final EntryCounts entries = new EntryCounts();

    DumpWriter(OutputStream out, DumpEncoding encoding) throws IOException {
        this.out = requireNonNull(out, "out is null");
        requireNonNull(encoding, "encoding is null");
        this.checksummed = encoding == DumpEncoding.BINARY ? new ChecksumOutputStream(out) : null;
        this.json = encoding.factory().createGenerator(checksummed != null ? checksummed : out, JsonEncoding.UTF8);
        // the caller owns the stream: close() flushes, finish() ends the document, neither closes it
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT);
        if (checksummed == null) {
            json.setPrettyPrinter(printer);
        }
    }

    /** Everything before the tree. */
    void header(Map<String, String> settings, List<String> secretsRemoved, DumpCounters counters) throws IOException {
        printer.topLevel = true;
        json.writeStartObject();
        json.writeStringField(DumpFormat.FORMAT, DumpFormat.FORMAT_NAME);
        json.writeNumberField(DumpFormat.VERSION_FIELD, DumpFormat.VERSION);
        json.writeFieldName(DumpFormat.SETTINGS);
        printer.topLevel = false;
        json.writeStartObject();
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            json.writeFieldName(text(setting.getKey()));
            json.writeString(text(setting.getValue()));
        }
        json.writeEndObject();
        printer.topLevel = true;
        json.writeArrayFieldStart(DumpFormat.SECRETS_REMOVED);
        for (String key : secretsRemoved) {
            json.writeString(text(key));
        }
        json.writeEndArray();
        json.writeFieldName(DumpFormat.COUNTERS);
        printer.topLevel = false;
        json.writeStartObject();
        json.writeNumberField(DumpFormat.NEXT_INODE, counters.nextInode());
        json.writeNumberField(DumpFormat.INODES, counters.inodes());
        json.writeNumberField(DumpFormat.USED_BYTES, counters.usedBytes());
        json.writeEndObject();
        printer.topLevel = true;
        json.writeArrayFieldStart(DumpFormat.SUSTAINED);
        json.writeEndArray();
    }

    /** The root directory: its attributes, then its entries follow until {@link #endDirectory()}. */
    void root(DumpedInode root) throws IOException {
        json.writeFieldName(DumpFormat.TREE);
        printer.topLevel = false;
        json.writeStartObject();
        attributes(root, true);
        json.writeFieldName(ENTRIES);
        json.writeStartArray();
    }

    /** A directory entry: its entries follow until {@link #endDirectory()}. */
    void directory(String name, DumpedInode dir, boolean primary) throws IOException {
        json.writeStartObject();
        json.writeFieldName(NAME);
        json.writeString(text(name));
        attributes(dir, primary);
        json.writeFieldName(ENTRIES);
        json.writeStartArray();
    }

    /** An entry of any type but a directory. */
    void entry(String name, DumpedInode node, boolean primary) throws IOException {
        json.writeStartObject();
        json.writeFieldName(NAME);
        json.writeString(text(name));
        attributes(node, primary);
        json.writeEndObject();
    }

    void endDirectory() throws IOException {
        json.writeEndArray();
        json.writeEndObject();
    }

    /**
     * Ends the document after the root's {@link #endDirectory()} and flushes: JSON with a newline,
     * binary with Smile's end marker (so that any Smile reader stops there) and the trailer.
     */
    void finish() throws IOException {
        printer.topLevel = true;
        json.writeEndObject();
        if (checksummed == null) {
            json.writeRaw('\n');
            json.flush();
            return;
        }
        json.flush();
        checksummed.write(SmileConstants.BYTE_MARKER_END_OF_CONTENT);
        new DumpTrailer(checksummed.length(), entries, checksummed.crc()).writeTo(out);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        json.close();
    }

    private void attributes(DumpedInode node, boolean primary) throws IOException {
        Inode inode = node.inode();
        entries.add(inode.type());
        number(INO, inode.ino());
        json.writeFieldName(TYPE);
        json.writeString(DumpFormat.typeName(inode.type()));
        json.writeFieldName(MODE);
        json.writeString(DumpFormat.mode(inode.mode()));
        number(UID, inode.uid());
        number(GID, inode.gid());
        number(ATIME, inode.atimeNs());
        number(MTIME, inode.mtimeNs());
        number(CTIME, inode.ctimeNs());
        number(NLINK, inode.nlink());
        number(SIZE, inode.size());
        number(RDEV, inode.rdev());
        if (!primary) {
            json.writeFieldName(PRIMARY);
            json.writeBoolean(false);
        }
        if (inode.ufsVersion() != null) {
            json.writeFieldName(UFS_VERSION);
            json.writeString(text(inode.ufsVersion()));
        }
        if (inode.type() == InodeType.DIRECTORY) {
            number(SYNCED, inode.syncedNs());
        }
        if (node.symlinkTarget() != null) {
            json.writeFieldName(TARGET);
            json.writeString(text(node.symlinkTarget()));
        }
        if (!node.xattrs().isEmpty()) {
            json.writeFieldName(XATTRS);
            json.writeStartObject();
            for (Xattr xattr : node.xattrs()) {
                json.writeFieldName(text(xattr.name()));
                json.writeBinary(xattr.value());
            }
            json.writeEndObject();
        }
    }

    /** A name or value from the volume, as the encoding carries it. */
    private String text(String s) {
        return checksummed == null ? s : BinaryStrings.escape(s);
    }

    private void number(SerializedString name, long value) throws IOException {
        json.writeFieldName(name);
        json.writeNumber(value);
    }

    /**
     * Compact JSON with a line break before every entry and every top-level member: a dump reads
     * as one entry per line, and stays far smaller than indented JSON.
     */
    private static final class OneEntryPerLine implements PrettyPrinter {
        /** Whether the object being written is the document itself; the writer says so as it goes. */
        boolean topLevel;

        @Override
        public void writeRootValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw('\n');
        }

        @Override
        public void writeStartObject(JsonGenerator g) throws IOException {
            g.writeRaw('{');
        }

        @Override
        public void writeEndObject(JsonGenerator g, int nrOfEntries) throws IOException {
            if (topLevel) {
                g.writeRaw('\n');
            }
            g.writeRaw('}');
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            if (topLevel) {
                g.writeRaw(",\n");
            } else {
                g.writeRaw(',');
            }
        }

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(':');
        }

        @Override
        public void writeStartArray(JsonGenerator g) throws IOException {
            g.writeRaw('[');
        }

        @Override
        public void writeEndArray(JsonGenerator g, int nrOfValues) throws IOException {
            g.writeRaw(']');
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(entries(g) ? ",\n" : ",");
        }

        @Override
        public void beforeArrayValues(JsonGenerator g) throws IOException {
            if (entries(g)) {
                g.writeRaw('\n');
            }
        }

        /** Whether the array being written is a directory's entries. */
        private static boolean entries(JsonGenerator g) {
            return g.getOutputContext().getParent() != null
                    && DumpFormat.ENTRIES.equals(g.getOutputContext().getParent().getCurrentName());
        }

        @Override
        public void beforeObjectEntries(JsonGenerator g) {
            // the document's first member stays on the line of its '{'
        }

    }
}
