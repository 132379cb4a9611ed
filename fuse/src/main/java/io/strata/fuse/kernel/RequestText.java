package io.strata.fuse.kernel;

import java.nio.charset.StandardCharsets;

/**
 * A request's arguments as the access log shows them: the node first, then names in quotes and
 * the numbers that matter ({@code 1,"data.csv"}; {@code 42,131072,0} for a read of 128 KiB at 0).
 * Read from the request's buffer after it was served, without moving its cursor.
 */
final class RequestText {
    private RequestText() {}

    static String arguments(Request request) {
        long node = request.nodeId();
        return switch (request.opcode()) {
            case Opcode.LOOKUP, Opcode.UNLINK, Opcode.RMDIR, Opcode.REMOVEXATTR -> node + "," + quoted(request, 0);
            case Opcode.SYMLINK -> node + "," + quoted(request, 0);
            case Opcode.MKDIR -> node + "," + quoted(request, 8);
            case Opcode.MKNOD, Opcode.CREATE -> node + "," + quoted(request, 16);
            case Opcode.GETXATTR, Opcode.SETXATTR -> node + "," + quoted(request, 8);
            case Opcode.LINK -> request.peekU64(0) + "," + node + "," + quoted(request, 8);
            case Opcode.RENAME -> renamed(request, 8);
            case Opcode.RENAME2 -> renamed(request, 16);
            // fh, offset, size: shown as node, size, offset
            case Opcode.READ, Opcode.WRITE, Opcode.READDIR, Opcode.READDIRPLUS ->
                    node + "," + Integer.toUnsignedString(request.peekU32(16)) + "," + request.peekU64(8);
            case Opcode.RELEASE, Opcode.RELEASEDIR, Opcode.FLUSH, Opcode.FSYNC, Opcode.FSYNCDIR ->
                    node + "," + request.peekU64(0);
            default -> Long.toString(node);
        };
    }

    private static String renamed(Request request, int nameOffset) {
        String name = request.peekName(nameOffset);
        int newNameOffset = nameOffset + name.getBytes(StandardCharsets.UTF_8).length + 1;
        return request.nodeId() + "," + quote(name) + "," + request.peekU64(0) + ","
                + quote(request.peekName(newNameOffset));
    }

    private static String quoted(Request request, int offset) {
        return quote(request.peekName(offset));
    }

    private static String quote(String name) {
        return '"' + name + '"';
    }
}
