package io.strata.fuse;

import io.strata.core.conf.DataSize;
import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;

import java.time.Duration;
import java.util.List;

/** Options of the FUSE mount itself: kernel caches, request sizes, access. */
public final class FuseOptions implements OptionGroup {
    public static final Option<Duration> ATTR_TIMEOUT = Option.builder("attr_timeout", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(1))
            .doc("How long the kernel caches file attributes.")
            .build();

    public static final Option<Duration> ENTRY_TIMEOUT = Option.builder("entry_timeout", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(1))
            .doc("How long the kernel caches name lookups.")
            .build();

    public static final Option<Boolean> KERNEL_CACHE = Option.builder("kernel_cache", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Keep file data in the kernel page cache across opens, never invalidated (data that"
                    + " only this mount changes).")
            .build();

    public static final Option<Boolean> AUTO_CACHE = Option.builder("auto_cache", OptionType.BOOLEAN)
            .defaultValue(true)
            .doc("Keep file data in the kernel page cache across opens, dropped when size or mtime changes.")
            .build();

    public static final Option<Boolean> DIRECT_IO = Option.builder("direct_io", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Bypass the kernel page cache: every read and write reaches Strata.")
            .build();

    public static final Option<Boolean> ALLOW_OTHER = Option.builder("allow_other", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Let users other than the mounting one use the mount (needs user_allow_other in"
                    + " /etc/fuse.conf when not root).")
            .build();

    public static final Option<DataSize> MAX_READ = Option.builder("max_read", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(1))
            .doc("Largest read request to ask the kernel for (libfuse2 caps requests at 128KiB).")
            .check(s -> s.bytes() >= 4096, "at least 4KiB")
            .build();

    public static final Option<DataSize> MAX_WRITE = Option.builder("max_write", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(1))
            .doc("Largest write request to ask the kernel for (libfuse2 caps requests at 128KiB).")
            .check(s -> s.bytes() >= 4096, "at least 4KiB")
            .build();

    public static final Option<Integer> UID = Option.builder("uid", OptionType.INT)
            .doc("Report this owner for every file instead of the stored one.")
            .check(i -> i >= 0, "a non-negative user id")
            .build();

    public static final Option<Integer> GID = Option.builder("gid", OptionType.INT)
            .doc("Report this group for every file instead of the stored one.")
            .check(i -> i >= 0, "a non-negative group id")
            .build();

    public static final Option<Integer> UMASK = Option.builder("umask", OptionType.OCTAL)
            .doc("Report permissions masked by this umask instead of the stored ones.")
            .check(i -> i >= 0 && i <= 0777, "an octal number from 000 to 777")
            .build();

    @Override
    public String title() {
        return "FUSE";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(ATTR_TIMEOUT, ENTRY_TIMEOUT, KERNEL_CACHE, AUTO_CACHE, DIRECT_IO, ALLOW_OTHER, MAX_READ,
                MAX_WRITE, UID, GID, UMASK);
    }
}
