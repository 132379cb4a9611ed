package io.strata.core.readahead;

import io.strata.core.conf.DataSize;
import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;

import java.util.List;

/**
 * Options of the readahead/prefetch engine under the page store (S3 volumes): how far a sequential
 * reader is read ahead, whether a random read fetches its whole block, how much memory the
 * engine's buffers may hold, and how many small files a directory's reader is read ahead.
 */
public final class ReadaheadOptions implements OptionGroup {
    // A lone stream over a link with latency keeps more GETs in flight with a deeper window (a cold
    // GiB at 10 ms to S3 read 15 % faster with 64 MiB than with 16), while streams reading at once
    // are bound by the CPU and only pay resident memory for more than a share, which stays at 16-32
    // MiB each (docs/PERFORMANCE.md, issue 11's seventh and forty-second rounds).
    public static final Option<DataSize> MAX_READAHEAD = Option.builder("max_readahead", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(64))
            .doc("Largest window a sequential reader is read ahead of its position, reading alone: streams of"
                    + " the volume reading at once share it equally, each keeping at least 16MiB. A window starts"
                    + " at 1MiB and doubles while the reads stay sequential; from 8MiB on it ends on the 8MiB grid"
                    + " of the GETs, rounded up. 0 turns readahead off.")
            .build();

    public static final Option<Boolean> PREFETCH = Option.builder("prefetch", OptionType.BOOLEAN)
            .defaultValue(true)
            .doc("A small random read fetches its whole aligned 1MiB block (a read in the last 1MiB of a file:"
                    + " the whole tail, where Parquet and ORC keep their footers), so reads near it need no"
                    + " request of their own. prefetch=0 fetches just the bytes asked for.")
            .build();

    public static final Option<DataSize> BUFFER_SIZE = Option.builder("buffer_size", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(128))
            .doc("Memory for readahead buffers across the volume's files: bytes being fetched plus fetched bytes"
                    + " not read yet (on the heap: keep it under half of -Xmx; with s3.client=crt whole parts are"
                    + " kept in the S3 client's direct buffer pool, sized from this). Readahead beyond it waits or"
                    + " shrinks; reads never exceed it.")
            .check(s -> s.bytes() >= (64 << 10), "at least 64KiB")
            .build();

    public static final Option<Integer> DIR_READAHEAD = Option.builder("dir_readahead", OptionType.INT)
            .defaultValue(8)
            .doc("Small files (a page or less) fetched into the cache ahead of a reader that opens a"
                    + " directory's files one after another in name order (cp -r, tar, grep -r, a loader reading"
                    + " shards in turn), once two such opens in a row show the order; at most this many files"
                    + " ahead of the reader, per directory. S3 volumes only; 0 turns it off.")
            .check(n -> n >= 0 && n <= 64, "0 to 64")
            .build();

    @Override
    public String title() {
        return "Readahead";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(MAX_READAHEAD, PREFETCH, BUFFER_SIZE, DIR_READAHEAD);
    }
}
