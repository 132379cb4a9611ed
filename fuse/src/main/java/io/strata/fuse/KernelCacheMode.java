package io.strata.fuse;

import io.strata.core.conf.OptionException;
import io.strata.core.conf.Options;

/**
 * How the kernel page cache treats file data, resolved from the three flag options.
 *
 * <p>Explicit choices win over the {@code auto_cache} default; two contradicting explicit choices
 * are refused rather than guessed at.
 */
enum KernelCacheMode {
    /** Data cached across opens and never invalidated by Strata. */
    KERNEL_CACHE("kernel_cache"),
    /** Data cached across opens, dropped when the file's size or mtime changed. */
    AUTO_CACHE("auto_cache"),
    /** No page cache: every read and write reaches Strata. */
    DIRECT_IO("direct_io"),
    /** Data cached while a file is open, dropped at each open. */
    NONE(null);

    private final String fuseOption;

    KernelCacheMode(String fuseOption) {
        this.fuseOption = fuseOption;
    }

    /** The libfuse option, or null. */
    String fuseOption() {
        return fuseOption;
    }

    static KernelCacheMode from(Options options) {
        boolean direct = options.get(FuseOptions.DIRECT_IO);
        boolean kernel = options.get(FuseOptions.KERNEL_CACHE);
        boolean autoSet = options.isSet(FuseOptions.AUTO_CACHE);
        boolean auto = options.get(FuseOptions.AUTO_CACHE);
        if (direct && kernel) {
            throw new OptionException("options direct_io and kernel_cache contradict each other; choose one");
        }
        if ((direct || kernel) && autoSet && auto) {
            throw new OptionException("option auto_cache contradicts " + (direct ? "direct_io" : "kernel_cache")
                    + "; choose one");
        }
        if (direct) {
            return DIRECT_IO;
        }
        if (kernel) {
            return KERNEL_CACHE;
        }
        return auto ? AUTO_CACHE : NONE;
    }
}
