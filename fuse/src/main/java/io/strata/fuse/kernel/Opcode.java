package io.strata.fuse.kernel;

/** Request opcodes of the FUSE kernel protocol (enum fuse_opcode in linux/fuse.h). */
final class Opcode {
    static final int LOOKUP = 1;
    static final int FORGET = 2;
    static final int GETATTR = 3;
    static final int SETATTR = 4;
    static final int READLINK = 5;
    static final int SYMLINK = 6;
    static final int MKNOD = 8;
    static final int MKDIR = 9;
    static final int UNLINK = 10;
    static final int RMDIR = 11;
    static final int RENAME = 12;
    static final int LINK = 13;
    static final int OPEN = 14;
    static final int READ = 15;
    static final int WRITE = 16;
    static final int STATFS = 17;
    static final int RELEASE = 18;
    static final int FSYNC = 20;
    static final int SETXATTR = 21;
    static final int GETXATTR = 22;
    static final int LISTXATTR = 23;
    static final int REMOVEXATTR = 24;
    static final int FLUSH = 25;
    static final int INIT = 26;
    static final int OPENDIR = 27;
    static final int READDIR = 28;
    static final int RELEASEDIR = 29;
    static final int FSYNCDIR = 30;
    static final int ACCESS = 34;
    static final int CREATE = 35;
    static final int INTERRUPT = 36;
    static final int DESTROY = 38;
    static final int BATCH_FORGET = 42;
    static final int FALLOCATE = 43;
    static final int READDIRPLUS = 44;
    static final int RENAME2 = 45;
    static final int LSEEK = 46;
    static final int COPY_FILE_RANGE = 47;

    private static final String[] NAMES = new String[64];

    static {
        String[] names = {"", "lookup", "forget", "getattr", "setattr", "readlink", "symlink", "", "mknod",
            "mkdir", "unlink", "rmdir", "rename", "link", "open", "read", "write", "statfs", "release", "",
            "fsync", "setxattr", "getxattr", "listxattr", "removexattr", "flush", "init", "opendir", "readdir",
            "releasedir", "fsyncdir", "getlk", "setlk", "setlkw", "access", "create", "interrupt", "bmap",
            "destroy", "ioctl", "poll", "notify_reply", "batch_forget", "fallocate", "readdirplus", "rename2",
            "lseek", "copy_file_range", "setupmapping", "removemapping", "syncfs", "tmpfile", "statx"};
        System.arraycopy(names, 0, NAMES, 0, names.length);
    }

    private Opcode() {}

    /** The operation's name for logs and meters ("op42" for one without a name here). */
    static String name(int opcode) {
        String name = opcode >= 0 && opcode < NAMES.length ? NAMES[opcode] : null;
        return name == null || name.isEmpty() ? "op" + opcode : name;
    }
}
