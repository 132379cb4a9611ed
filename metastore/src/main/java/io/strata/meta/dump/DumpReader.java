package io.strata.meta.dump;

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
import java.util.zip.ZipException;

import static io.strata.meta.dump.Unicode.printable;
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
    private final DumpTokens tokens;
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
        this.tokens = new DumpTokens(json, trailed != null, this::context);
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
                throw reader.tokens.malformed(e);
            } catch (MalformedDumpException e) {
                if (e.byteOffset() >= 0) {
                    throw e;
                }
                // the visitor found the problem (a directory twice, ...): it is where the parser is
                throw new MalformedDumpException(reader.tokens.offset(), e.problem() + reader.context(), e);
            } catch (ZipException | EOFException e) {
                throw new MalformedDumpException(json.currentLocation().getByteOffset(),
                        "the compressed file is " + (e instanceof EOFException ? "truncated" : "corrupt") + " ("
                                + e.getMessage() + ")" + reader.context(), e);
            }
        }
    }

    private void document() throws IOException {
        tokens.expect(JsonToken.START_OBJECT, "'{', the start of a dump");
        tokens.field(DumpFormat.FORMAT);
        String format = tokens.string(DumpFormat.FORMAT);
        if (!format.equals(DumpFormat.FORMAT_NAME)) {
            throw tokens.malformed("this is not a Strata dump: \"format\" is \"" + printable(format) + "\", not \""
                    + DumpFormat.FORMAT_NAME + "\"");
        }
        tokens.field(DumpFormat.VERSION_FIELD);
        int version = tokens.integer(DumpFormat.VERSION_FIELD);
        if (version > DumpFormat.VERSION) {
            throw tokens.malformed("the dump has format version " + version + ", newer than version " + DumpFormat.VERSION
                    + " that this Strata reads: load it with a newer Strata");
        }
        if (version < 1) {
            throw tokens.malformed("\"version\" must be 1 or more, not " + version);
        }
        tokens.field(DumpFormat.SETTINGS);
        Map<String, String> settings = tokens.stringMap(DumpFormat.SETTINGS);
        tokens.field(DumpFormat.SECRETS_REMOVED);
        List<String> secretsRemoved = tokens.stringList(DumpFormat.SECRETS_REMOVED);
        tokens.field(DumpFormat.COUNTERS);
        tokens.expect(JsonToken.START_OBJECT, "an object for \"" + DumpFormat.COUNTERS + "\"");
        tokens.field(DumpFormat.NEXT_INODE);
        long nextInode = tokens.number(DumpFormat.NEXT_INODE);
        tokens.field(DumpFormat.INODES);
        long inodes = tokens.number(DumpFormat.INODES);
        tokens.field(DumpFormat.USED_BYTES);
        long usedBytes = tokens.number(DumpFormat.USED_BYTES);
        tokens.expect(JsonToken.END_OBJECT, "'}' after the counters");
        tokens.field(DumpFormat.SUSTAINED);
        tokens.expect(JsonToken.START_ARRAY, "an array for \"" + DumpFormat.SUSTAINED + "\"");
        if (tokens.next() != JsonToken.END_ARRAY) {
            throw tokens.malformed("expected ']': this Strata loads no sustained (open but unlinked) inodes, found "
                    + tokens.found());
        }
        visitor.header(new Header(version, settings, secretsRemoved, new DumpCounters(nextInode, inodes, usedBytes)));

        tokens.field(DumpFormat.TREE);
        tokens.expect(JsonToken.START_OBJECT, "an object for \"" + DumpFormat.TREE + "\", the root directory");
        entry(true);
        while (depth > 0) {
            JsonToken token = tokens.next();
            if (token == JsonToken.START_OBJECT) {
                entry(false);
            } else if (token == JsonToken.END_ARRAY) {
                tokens.expect(JsonToken.END_OBJECT, "'}' after the entries of a directory");
                depth--;
                names.remove(names.size() - 1);
                lastNames.remove(lastNames.size() - 1);
                visitor.endDirectory();
            } else {
                throw tokens.malformed("expected an entry ('{') or the end of the entries (']'), found " + tokens.found());
            }
        }
        tokens.expect(JsonToken.END_OBJECT, "'}', the end of the dump, after the tree");
        if (tokens.next() != null) {
            throw tokens.malformed("expected the end of the input after the dump, found " + tokens.found());
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
            tokens.field(DumpFormat.NAME);
            name = tokens.string(DumpFormat.NAME);
            checkName(name);
        }
        tokens.field(DumpFormat.INO);
        long ino = tokens.number(DumpFormat.INO);
        if (ino <= 0 || root != (ino == Inode.ROOT)) {
            throw tokens.malformed(root ? "the root must have \"ino\" " + Inode.ROOT + ", not " + ino
                    : "\"ino\" must be a positive number other than the root's " + Inode.ROOT + ", not " + ino);
        }
        tokens.field(DumpFormat.TYPE);
        String typeName = tokens.string(DumpFormat.TYPE);
        InodeType type = DumpFormat.type(typeName);
        if (type == null) {
            throw tokens.malformed("unknown \"type\" \"" + printable(typeName)
                    + "\": expected file, dir, symlink, fifo, socket, chardev or blockdev");
        }
        if (root && type != InodeType.DIRECTORY) {
            throw tokens.malformed("the root must be a directory, not a " + typeName);
        }
        entries.add(type);
        tokens.field(DumpFormat.MODE);
        String modeText = tokens.string(DumpFormat.MODE);
        int mode = DumpFormat.mode(modeText);
        if (mode < 0) {
            throw tokens.malformed("\"mode\" must be 4 octal digits such as \"0644\", not \"" + printable(modeText) + "\"");
        }
        tokens.field(DumpFormat.UID);
        int uid = tokens.integer(DumpFormat.UID);
        tokens.field(DumpFormat.GID);
        int gid = tokens.integer(DumpFormat.GID);
        tokens.field(DumpFormat.ATIME);
        long atime = tokens.number(DumpFormat.ATIME);
        tokens.field(DumpFormat.MTIME);
        long mtime = tokens.number(DumpFormat.MTIME);
        tokens.field(DumpFormat.CTIME);
        long ctime = tokens.number(DumpFormat.CTIME);
        tokens.field(DumpFormat.NLINK);
        int nlink = tokens.integer(DumpFormat.NLINK);
        tokens.field(DumpFormat.SIZE);
        long size = tokens.number(DumpFormat.SIZE);
        if (size < 0) {
            throw tokens.malformed("\"size\" must not be negative: " + size);
        }
        tokens.field(DumpFormat.RDEV);
        long rdev = tokens.number(DumpFormat.RDEV);

        String member = tokens.nextMember();
        boolean primary = true;
        if (DumpFormat.PRIMARY.equals(member)) {
            primary = tokens.bool(DumpFormat.PRIMARY);
            member = tokens.nextMember();
        }
        String ufsVersion = null;
        if (DumpFormat.UFS_VERSION.equals(member)) {
            ufsVersion = tokens.string(DumpFormat.UFS_VERSION);
            member = tokens.nextMember();
        }
        long synced = Inode.NEVER_SYNCED;
        if (DumpFormat.SYNCED.equals(member)) {
            if (type != InodeType.DIRECTORY) {
                throw tokens.malformed("\"" + DumpFormat.SYNCED + "\" belongs to directories only, this is a " + typeName);
            }
            synced = tokens.number(DumpFormat.SYNCED);
            member = tokens.nextMember();
        }
        String target = null;
        if (DumpFormat.TARGET.equals(member)) {
            if (type != InodeType.SYMLINK) {
                throw tokens.malformed("\"" + DumpFormat.TARGET + "\" belongs to symlinks only, this is a " + typeName);
            }
            target = tokens.string(DumpFormat.TARGET);
            member = tokens.nextMember();
        } else if (type == InodeType.SYMLINK) {
            throw tokens.malformed("expected \"" + DumpFormat.TARGET + "\", the target of the symlink, found "
                    + (member == null ? "the end of the entry" : "\"" + printable(member) + "\""));
        }
        List<Xattr> xattrs = List.of();
        if (DumpFormat.XATTRS.equals(member)) {
            xattrs = xattrs();
            member = tokens.nextMember();
        }
        Inode inode;
        try {
            inode = new Inode(ino, type, mode, uid, gid, atime, mtime, ctime, nlink, size, rdev, parent, name,
                    ufsVersion, synced);
        } catch (IllegalArgumentException e) {
            throw tokens.malformed(e.getMessage());
        }
        DumpedInode node = new DumpedInode(inode, target, xattrs);
        if (type == InodeType.DIRECTORY) {
            if (!DumpFormat.ENTRIES.equals(member)) {
                throw tokens.malformed("expected \"" + DumpFormat.ENTRIES + "\", the entries of directory "
                        + printable(pathOf(name)) + ", found " + (member == null ? "the end of the entry"
                        : "\"" + printable(member) + "\""));
            }
            tokens.expect(JsonToken.START_ARRAY, "'[', the entries of directory " + printable(pathOf(name)));
            visitor.directory(root ? null : name, node, primary);
            if (depth == dirs.length) {
                dirs = Arrays.copyOf(dirs, depth * 2);
            }
            dirs[depth++] = ino;
            names.add(name);
            lastNames.add(null);
        } else {
            if (member != null) {
                throw tokens.malformed("unexpected \"" + printable(member) + "\" in " + typeName + " "
                        + printable(pathOf(name)) + (DumpFormat.ENTRIES.equals(member) ? " (only directories have entries)"
                        : ": expected the end of the entry, or a member that comes earlier"));
            }
            visitor.entry(name, node, primary);
        }
    }

    private List<Xattr> xattrs() throws IOException {
        tokens.expect(JsonToken.START_OBJECT, "an object for \"" + DumpFormat.XATTRS + "\"");
        List<Xattr> xattrs = new ArrayList<>(2);
        String last = null;
        for (JsonToken token = tokens.next(); token != JsonToken.END_OBJECT; token = tokens.next()) {
            if (token != JsonToken.FIELD_NAME) {
                throw tokens.malformed("expected the name of an xattr or '}', found " + tokens.found());
            }
            String name = tokens.memberName();
            if (last != null && Names.ORDER.compare(last, name) >= 0) {
                throw tokens.malformed("xattr \"" + printable(name) + "\" comes after \"" + printable(last)
                        + "\": xattrs must be in name order, each once");
            }
            last = name;
            xattrs.add(new Xattr(name, tokens.xattrValue(name)));
        }
        return xattrs;
    }

    private void checkName(String name) throws MalformedDumpException {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
            throw tokens.malformed("\"" + printable(name) + "\" is not a name an entry can have (empty, '.', '..' or with '/')");
        }
        int level = lastNames.size() - 1;
        String last = lastNames.get(level);
        if (last != null && Names.ORDER.compare(last, name) >= 0) {
            throw tokens.malformed("entry \"" + printable(name) + "\" comes after \"" + printable(last) + "\" in directory "
                    + printable(path()) + ": entries must be in name order, each name once");
        }
        lastNames.set(level, name);
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

}
