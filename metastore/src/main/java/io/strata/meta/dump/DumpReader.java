package io.strata.meta.dump;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.Names;
import io.strata.meta.dump.DumpVisitor.Header;
import io.strata.meta.dump.DumpedInode.Xattr;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipException;

import static java.util.Objects.requireNonNull;

/**
 * Reads a dump (the format is the header of {@link DumpFormat}) with a streaming
 * {@link JsonParser} and hands it to a {@link DumpVisitor} entry by entry: nothing is kept but the
 * path to the current directory. Members must come in the format's order; anything else, and a
 * file that ends early, is a {@link MalformedDumpException} that names the byte offset and what
 * was expected there. A binary dump ({@link DumpEncoding}, told by its first bytes) is read by
 * the same code through Smile, and must also end with a {@link DumpTrailer} that matches it.
 */
final class DumpReader {
    private final JsonParser json;
    private final DumpVisitor visitor;
    /** Binary only: the document without its trailer, which it checks. */
    private final TrailerInput trailed;
    private final EntryCounts entries = new EntryCounts();
    // the directories from the root down to the one whose entries are being read
    private long[] dirs = new long[64];
    private final List<String> names = new ArrayList<>();
    private final List<String> lastNames = new ArrayList<>();
    private int depth;

    private DumpReader(JsonParser json, DumpVisitor visitor, TrailerInput trailed) {
        this.json = json;
        this.visitor = visitor;
        this.trailed = trailed;
    }

    /** Reads the whole dump, JSON or binary, from {@code in} (not closed) into {@code visitor}. */
    static void read(InputStream in, DumpVisitor visitor) throws IOException {
        requireNonNull(in, "in is null");
        requireNonNull(visitor, "visitor is null");
        PushbackInputStream peeking = new PushbackInputStream(in, DumpEncoding.SMILE_HEADER.length);
        byte[] head = new byte[DumpEncoding.SMILE_HEADER.length];
        int length = peeking.readNBytes(head, 0, head.length);
        peeking.unread(head, 0, length);
        DumpEncoding encoding = DumpEncoding.detect(head, length);
        TrailerInput trailed = encoding == DumpEncoding.BINARY ? new TrailerInput(peeking) : null;
        try (JsonParser json = encoding.factory().createParser(trailed != null ? trailed : peeking)) {
            json.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
            DumpReader reader = new DumpReader(json, visitor, trailed);
            try {
                reader.document();
            } catch (StreamReadException e) {
                throw reader.malformed(e);
            } catch (MalformedDumpException e) {
                if (e.byteOffset() >= 0) {
                    throw e;
                }
                // the visitor found the problem (a directory twice, ...): it is where the parser is
                throw new MalformedDumpException(reader.offset(), e.problem() + reader.context(), e);
            } catch (ZipException | EOFException e) {
                throw new MalformedDumpException(json.currentLocation().getByteOffset(),
                        "the compressed file is " + (e instanceof EOFException ? "truncated" : "corrupt") + " ("
                                + e.getMessage() + ")" + reader.context(), e);
            }
        }
    }

    private void document() throws IOException {
        expect(JsonToken.START_OBJECT, "'{', the start of a dump");
        field(DumpFormat.FORMAT);
        String format = string(DumpFormat.FORMAT);
        if (!format.equals(DumpFormat.FORMAT_NAME)) {
            throw malformed("this is not a Strata dump: \"format\" is \"" + printable(format) + "\", not \""
                    + DumpFormat.FORMAT_NAME + "\"");
        }
        field(DumpFormat.VERSION_FIELD);
        int version = integer(DumpFormat.VERSION_FIELD);
        if (version > DumpFormat.VERSION) {
            throw malformed("the dump has format version " + version + ", newer than version " + DumpFormat.VERSION
                    + " that this Strata reads: load it with a newer Strata");
        }
        if (version < 1) {
            throw malformed("\"version\" must be 1 or more, not " + version);
        }
        field(DumpFormat.SETTINGS);
        Map<String, String> settings = stringMap(DumpFormat.SETTINGS);
        field(DumpFormat.SECRETS_REMOVED);
        List<String> secretsRemoved = stringList(DumpFormat.SECRETS_REMOVED);
        field(DumpFormat.COUNTERS);
        expect(JsonToken.START_OBJECT, "an object for \"" + DumpFormat.COUNTERS + "\"");
        field(DumpFormat.NEXT_INODE);
        long nextInode = number(DumpFormat.NEXT_INODE);
        field(DumpFormat.INODES);
        long inodes = number(DumpFormat.INODES);
        field(DumpFormat.USED_BYTES);
        long usedBytes = number(DumpFormat.USED_BYTES);
        expect(JsonToken.END_OBJECT, "'}' after the counters");
        field(DumpFormat.SUSTAINED);
        expect(JsonToken.START_ARRAY, "an array for \"" + DumpFormat.SUSTAINED + "\"");
        if (json.nextToken() != JsonToken.END_ARRAY) {
            throw malformed("expected ']': this Strata loads no sustained (open but unlinked) inodes, found "
                    + found());
        }
        visitor.header(new Header(version, settings, secretsRemoved, new DumpCounters(nextInode, inodes, usedBytes)));

        field(DumpFormat.TREE);
        expect(JsonToken.START_OBJECT, "an object for \"" + DumpFormat.TREE + "\", the root directory");
        entry(true);
        while (depth > 0) {
            JsonToken token = json.nextToken();
            if (token == JsonToken.START_OBJECT) {
                entry(false);
            } else if (token == JsonToken.END_ARRAY) {
                expect(JsonToken.END_OBJECT, "'}' after the entries of a directory");
                depth--;
                names.remove(names.size() - 1);
                lastNames.remove(lastNames.size() - 1);
                visitor.endDirectory();
            } else {
                throw malformed("expected an entry ('{') or the end of the entries (']'), found " + found());
            }
        }
        expect(JsonToken.END_OBJECT, "'}', the end of the dump, after the tree");
        if (json.nextToken() != null) {
            throw malformed("expected the end of the input after the dump, found " + found());
        }
        if (trailed != null) {
            trailed.verify(entries);
        }
        visitor.end();
    }

    /** One entry, after its '{': a directory is left open after its "entries":[, anything else is read whole. */
    private void entry(boolean root) throws IOException {
        long parent = root ? Inode.ROOT : dirs[depth - 1];
        String name = "";
        if (!root) {
            field(DumpFormat.NAME);
            name = string(DumpFormat.NAME);
            checkName(name);
        }
        field(DumpFormat.INO);
        long ino = number(DumpFormat.INO);
        if (ino <= 0 || root != (ino == Inode.ROOT)) {
            throw malformed(root ? "the root must have \"ino\" " + Inode.ROOT + ", not " + ino
                    : "\"ino\" must be a positive number other than the root's " + Inode.ROOT + ", not " + ino);
        }
        field(DumpFormat.TYPE);
        String typeName = string(DumpFormat.TYPE);
        InodeType type = DumpFormat.type(typeName);
        if (type == null) {
            throw malformed("unknown \"type\" \"" + printable(typeName)
                    + "\": expected file, dir, symlink, fifo, socket, chardev or blockdev");
        }
        if (root && type != InodeType.DIRECTORY) {
            throw malformed("the root must be a directory, not a " + typeName);
        }
        entries.add(type);
        field(DumpFormat.MODE);
        String modeText = string(DumpFormat.MODE);
        int mode = DumpFormat.mode(modeText);
        if (mode < 0) {
            throw malformed("\"mode\" must be 4 octal digits such as \"0644\", not \"" + printable(modeText) + "\"");
        }
        field(DumpFormat.UID);
        int uid = integer(DumpFormat.UID);
        field(DumpFormat.GID);
        int gid = integer(DumpFormat.GID);
        field(DumpFormat.ATIME);
        long atime = number(DumpFormat.ATIME);
        field(DumpFormat.MTIME);
        long mtime = number(DumpFormat.MTIME);
        field(DumpFormat.CTIME);
        long ctime = number(DumpFormat.CTIME);
        field(DumpFormat.NLINK);
        int nlink = integer(DumpFormat.NLINK);
        field(DumpFormat.SIZE);
        long size = number(DumpFormat.SIZE);
        if (size < 0) {
            throw malformed("\"size\" must not be negative: " + size);
        }
        field(DumpFormat.RDEV);
        long rdev = number(DumpFormat.RDEV);

        String member = nextMember();
        boolean primary = true;
        if (DumpFormat.PRIMARY.equals(member)) {
            primary = bool(DumpFormat.PRIMARY);
            member = nextMember();
        }
        String ufsVersion = null;
        if (DumpFormat.UFS_VERSION.equals(member)) {
            ufsVersion = string(DumpFormat.UFS_VERSION);
            member = nextMember();
        }
        long synced = Inode.NEVER_SYNCED;
        if (DumpFormat.SYNCED.equals(member)) {
            if (type != InodeType.DIRECTORY) {
                throw malformed("\"" + DumpFormat.SYNCED + "\" belongs to directories only, this is a " + typeName);
            }
            synced = number(DumpFormat.SYNCED);
            member = nextMember();
        }
        String target = null;
        if (DumpFormat.TARGET.equals(member)) {
            if (type != InodeType.SYMLINK) {
                throw malformed("\"" + DumpFormat.TARGET + "\" belongs to symlinks only, this is a " + typeName);
            }
            target = string(DumpFormat.TARGET);
            member = nextMember();
        } else if (type == InodeType.SYMLINK) {
            throw malformed("expected \"" + DumpFormat.TARGET + "\", the target of the symlink, found "
                    + (member == null ? "the end of the entry" : "\"" + printable(member) + "\""));
        }
        List<Xattr> xattrs = List.of();
        if (DumpFormat.XATTRS.equals(member)) {
            xattrs = xattrs();
            member = nextMember();
        }
        Inode inode;
        try {
            inode = new Inode(ino, type, mode, uid, gid, atime, mtime, ctime, nlink, size, rdev, parent, name,
                    ufsVersion, synced);
        } catch (IllegalArgumentException e) {
            throw malformed(e.getMessage());
        }
        DumpedInode node = new DumpedInode(inode, target, xattrs);
        if (type == InodeType.DIRECTORY) {
            if (!DumpFormat.ENTRIES.equals(member)) {
                throw malformed("expected \"" + DumpFormat.ENTRIES + "\", the entries of directory "
                        + printable(pathOf(name)) + ", found " + (member == null ? "the end of the entry"
                        : "\"" + printable(member) + "\""));
            }
            expect(JsonToken.START_ARRAY, "'[', the entries of directory " + printable(pathOf(name)));
            visitor.directory(root ? null : name, node, primary);
            if (depth == dirs.length) {
                dirs = Arrays.copyOf(dirs, depth * 2);
            }
            dirs[depth++] = ino;
            names.add(name);
            lastNames.add(null);
        } else {
            if (member != null) {
                throw malformed("unexpected \"" + printable(member) + "\" in " + typeName + " "
                        + printable(pathOf(name)) + (DumpFormat.ENTRIES.equals(member) ? " (only directories have entries)"
                        : ": expected the end of the entry, or a member that comes earlier"));
            }
            visitor.entry(name, node, primary);
        }
    }

    private List<Xattr> xattrs() throws IOException {
        expect(JsonToken.START_OBJECT, "an object for \"" + DumpFormat.XATTRS + "\"");
        List<Xattr> xattrs = new ArrayList<>(2);
        String last = null;
        for (JsonToken token = json.nextToken(); token != JsonToken.END_OBJECT; token = json.nextToken()) {
            if (token != JsonToken.FIELD_NAME) {
                throw malformed("expected the name of an xattr or '}', found " + found());
            }
            String name = text(json.currentName());
            if (last != null && Names.ORDER.compare(last, name) >= 0) {
                throw malformed("xattr \"" + printable(name) + "\" comes after \"" + printable(last)
                        + "\": xattrs must be in name order, each once");
            }
            last = name;
            // a binary dump has the bytes themselves, JSON base64 text
            JsonToken value = json.nextToken();
            if (value != (trailed != null ? JsonToken.VALUE_EMBEDDED_OBJECT : JsonToken.VALUE_STRING)) {
                throw malformed("expected the " + (trailed != null ? "bytes" : "base64 value") + " of xattr \""
                        + printable(name) + "\", found " + found());
            }
            xattrs.add(new Xattr(name, json.getBinaryValue(Base64Variants.MIME_NO_LINEFEEDS)));
        }
        return xattrs;
    }

    private void checkName(String name) throws MalformedDumpException {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
            throw malformed("\"" + printable(name) + "\" is not a name an entry can have (empty, '.', '..' or with '/')");
        }
        int level = lastNames.size() - 1;
        String last = lastNames.get(level);
        if (last != null && Names.ORDER.compare(last, name) >= 0) {
            throw malformed("entry \"" + printable(name) + "\" comes after \"" + printable(last) + "\" in directory "
                    + printable(path()) + ": entries must be in name order, each name once");
        }
        lastNames.set(level, name);
    }

    // --- tokens

    private void expect(JsonToken expected, String what) throws IOException {
        if (json.nextToken() != expected) {
            throw malformed("expected " + what + ", found " + found());
        }
    }

    /** The next member, which must be {@code name}. */
    private void field(String name) throws IOException {
        JsonToken token = json.nextToken();
        if (token != JsonToken.FIELD_NAME || !name.equals(json.currentName())) {
            throw malformed("expected \"" + name + "\", found " + found());
        }
    }

    /** The name of the next member, or null at the end of the object. */
    private String nextMember() throws IOException {
        JsonToken token = json.nextToken();
        if (token == JsonToken.END_OBJECT) {
            return null;
        }
        if (token != JsonToken.FIELD_NAME) {
            throw malformed("expected a member or '}', found " + found());
        }
        return json.currentName();
    }

    private String string(String field) throws IOException {
        if (json.nextToken() != JsonToken.VALUE_STRING) {
            throw malformed("expected a string for \"" + field + "\", found " + found());
        }
        return text(json.getText());
    }

    /** A name or value from the volume, as the encoding carries it ({@link BinaryStrings}). */
    private String text(String s) throws MalformedDumpException {
        if (trailed == null) {
            return s;
        }
        String text = BinaryStrings.unescape(s);
        if (text == null) {
            throw malformed("\"" + printable(abbreviate(s)) + "\" starts with U+0000 but is not an escaped string"
                    + " (U+0000 and 4 lowercase hex digits per UTF-16 unit, only where needed)");
        }
        return text;
    }

    private long number(String field) throws IOException {
        if (json.nextToken() != JsonToken.VALUE_NUMBER_INT) {
            throw malformed("expected a whole number for \"" + field + "\", found " + found());
        }
        return json.getLongValue();
    }

    private int integer(String field) throws IOException {
        if (json.nextToken() != JsonToken.VALUE_NUMBER_INT) {
            throw malformed("expected a whole number for \"" + field + "\", found " + found());
        }
        return json.getIntValue();
    }

    private boolean bool(String field) throws IOException {
        JsonToken token = json.nextToken();
        if (token != JsonToken.VALUE_TRUE && token != JsonToken.VALUE_FALSE) {
            throw malformed("expected true or false for \"" + field + "\", found " + found());
        }
        return token == JsonToken.VALUE_TRUE;
    }

    private Map<String, String> stringMap(String field) throws IOException {
        expect(JsonToken.START_OBJECT, "an object for \"" + field + "\"");
        Map<String, String> map = new TreeMap<>();
        for (JsonToken token = json.nextToken(); token != JsonToken.END_OBJECT; token = json.nextToken()) {
            if (token != JsonToken.FIELD_NAME) {
                throw malformed("expected a key or '}' in \"" + field + "\", found " + found());
            }
            String key = text(json.currentName());
            if (map.put(key, string(key)) != null) {
                throw malformed("\"" + printable(key) + "\" appears twice in \"" + field + "\"");
            }
        }
        return map;
    }

    private List<String> stringList(String field) throws IOException {
        expect(JsonToken.START_ARRAY, "an array for \"" + field + "\"");
        List<String> list = new ArrayList<>();
        for (JsonToken token = json.nextToken(); token != JsonToken.END_ARRAY; token = json.nextToken()) {
            if (token != JsonToken.VALUE_STRING) {
                throw malformed("expected a string or ']' in \"" + field + "\", found " + found());
            }
            list.add(text(json.getText()));
        }
        return list;
    }

    // --- messages

    /** What the current token is, for "expected X, found Y". */
    private String found() throws IOException {
        JsonToken token = json.currentToken();
        if (token == null) {
            return "the end of the input: the dump is truncated";
        }
        return switch (token) {
            case START_OBJECT -> "'{'";
            case END_OBJECT -> "'}'";
            case START_ARRAY -> "'['";
            case END_ARRAY -> "']'";
            case FIELD_NAME -> "\"" + printable(json.currentName()) + "\"";
            case VALUE_STRING -> "the string \"" + printable(abbreviate(json.getText())) + "\"";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "the number " + json.getText();
            case VALUE_TRUE, VALUE_FALSE -> token.asString();
            case VALUE_NULL -> "null";
            default -> token.toString();
        };
    }

    private MalformedDumpException malformed(String problem) {
        return new MalformedDumpException(offset(), problem + context());
    }

    /** Where the current token starts, or where the parser is when there is none (the end of the input). */
    private long offset() {
        long offset = json.currentTokenLocation().getByteOffset();
        return offset >= 0 ? offset : Math.max(0, json.currentLocation().getByteOffset());
    }

    private MalformedDumpException malformed(StreamReadException e) {
        String message = e.getOriginalMessage();
        if (message.startsWith("Unexpected end-of-input")) {
            message = "the dump is truncated (" + message + ")";
        }
        long offset = e.getLocation() != null ? e.getLocation().getByteOffset() : -1;
        return new MalformedDumpException(offset, message + context(), e);
    }

    private String context() {
        return depth == 0 ? "" : " (in directory " + printable(path()) + ")";
    }

    private String path() {
        if (names.size() <= 1) {
            return "/";
        }
        StringBuilder path = new StringBuilder();
        for (int i = 1; i < names.size(); i++) {
            path.append('/').append(names.get(i));
        }
        return path.toString();
    }

    private String pathOf(String name) {
        if (depth == 0) {
            return "/";
        }
        String dir = path();
        return dir.endsWith("/") ? dir + name : dir + "/" + name;
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    /** The text with control characters and unpaired surrogates as \\u escapes, safe for a terminal. */
    static String printable(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean unpaired = Character.isSurrogate(c) && !(Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1)));
            if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1))) {
                unpaired = false;
            }
            if (Character.isISOControl(c) || unpaired) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                out.append(String.format("\\u%04x", (int) c));
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }
}
