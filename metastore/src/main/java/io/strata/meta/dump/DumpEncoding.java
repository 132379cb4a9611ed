package io.strata.meta.dump;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;

/**
 * How a dump's document is encoded: JSON text (the interchange default) or the same document in
 * Smile, Jackson's binary JSON, followed by a {@link DumpTrailer}. Both go through the same
 * {@link DumpWriter} and {@link DumpReader}; only the {@link JsonFactory} differs. A reader tells
 * them apart by the first bytes: Smile's header is {@code :)\n}, JSON starts with {@code {}.
 */
public enum DumpEncoding {
    JSON(JsonFactory.builder()
            .streamReadConstraints(readConstraints())
            .streamWriteConstraints(writeConstraints())
            .build()),
    BINARY(SmileFactory.builder()
            .streamReadConstraints(readConstraints())
            .streamWriteConstraints(writeConstraints())
            // member names come back as one-byte references (on by default; said here because the size depends on it)
            .enable(SmileGenerator.Feature.CHECK_SHARED_NAMES)
            // "file", "0644", "dir" and UFS versions repeat in every entry: one byte each after the first
            .enable(SmileGenerator.Feature.CHECK_SHARED_STRING_VALUES)
            // xattr values as raw bytes rather than 7 bits a byte
            .disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT)
            // an unpaired surrogate must fail loudly, not become U+FFFD: BinaryStrings escapes them first
            .disable(SmileGenerator.Feature.LENIENT_UTF_ENCODING)
            .build());

    /** The first bytes of every Smile document, and so of every binary dump. */
    static final byte[] SMILE_HEADER = {':', ')', '\n'};

    private final JsonFactory factory;

    DumpEncoding(JsonFactory factory) {
        this.factory = factory;
    }

    JsonFactory factory() {
        return factory;
    }

    /**
     * The encoding of a dump that starts with {@code head[0..length)}: binary if those bytes are
     * Smile's header or the start of it (a file cut inside it is a truncated binary dump), JSON
     * otherwise (an empty file included: the JSON reader calls it truncated).
     */
    static DumpEncoding detect(byte[] head, int length) {
        if (length == 0) {
            return JSON;
        }
        for (int i = 0; i < Math.min(length, SMILE_HEADER.length); i++) {
            if (head[i] != SMILE_HEADER[i]) {
                return JSON;
            }
        }
        return BINARY;
    }

    private static StreamReadConstraints readConstraints() {
        return StreamReadConstraints.builder().maxNestingDepth(DumpWriter.MAX_NESTING).build();
    }

    private static StreamWriteConstraints writeConstraints() {
        return StreamWriteConstraints.builder().maxNestingDepth(DumpWriter.MAX_NESTING).build();
    }
}
