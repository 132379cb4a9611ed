package io.strata.core.conf;

import java.time.Duration;
import java.util.List;

/** Small option groups for the conf tests; the real groups live in the modules they configure. */
final class TestOptions {
    static final Option<Duration> ATTR_TIMEOUT = Option.builder("attr_timeout", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(1))
            .doc("Kernel attribute cache timeout.")
            .build();

    static final Option<DataSize> PAGE_SIZE = Option.builder("local_cache_page_size", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(1))
            .aliases("page_size")
            .check(size -> Long.bitCount(size.bytes()) == 1, "a power of two such as 1MiB")
            .doc("Page size of the data cache.")
            .build();

    static final Option<DataSize> BUFFER_SIZE = Option.builder("buffer_size", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(300))
            .doc("Memory for readahead buffers.")
            .build();

    static final Option<Boolean> KERNEL_CACHE = Option.builder("kernel_cache", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Never invalidate the kernel page cache.")
            .build();

    static final Option<Integer> MAX_UPLOADS = Option.builder("max_uploads", OptionType.INT)
            .defaultValue(20)
            .check(n -> n > 0, "a positive number")
            .doc("Uploads in flight.")
            .build();

    static final Option<Integer> UMASK = Option.builder("umask", OptionType.OCTAL)
            .defaultValue(022)
            .doc("Mode bits cleared on create.")
            .build();

    static final Option<String> SECRET_KEY = Option.builder("s3.secret_key", OptionType.STRING)
            .secret()
            .doc("S3 secret access key.")
            .build();

    static final Option<Integer> SECRET_PIN = Option.builder("secret_pin", OptionType.INT)
            .secret()
            .check(n -> n >= 1000, "four digits or more")
            .doc("A numeric secret.")
            .build();

    static final OptionGroup CACHE = group("Cache", PAGE_SIZE, BUFFER_SIZE);
    static final OptionGroup FUSE = group("FUSE", ATTR_TIMEOUT, KERNEL_CACHE, UMASK);
    static final OptionGroup STORAGE = group("Storage", MAX_UPLOADS, SECRET_KEY, SECRET_PIN);

    private TestOptions() {}

    static OptionRegistry registry() {
        return new OptionRegistry(List.of(CACHE, FUSE, STORAGE));
    }

    static OptionGroup group(String title, Option<?>... options) {
        List<Option<?>> list = List.of(options);
        return new OptionGroup() {
            @Override
            public String title() {
                return title;
            }

            @Override
            public List<Option<?>> options() {
                return list;
            }
        };
    }
}
