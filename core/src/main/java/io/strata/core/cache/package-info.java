/**
 * The data cache: fixed-size pages of file data in tiers under the kernel's page cache.
 *
 * <p><b>Identity.</b> A page is named by a {@link io.strata.core.cache.PageId}: the file (the
 * volume's id and the inode number, stable across renames and shared by hard links), the content
 * version it was read from (an ETag, or size and mtime for a local file), its index and the page
 * size. New content is a new version, so it is never served from old pages; pages of an old
 * version or another page size are simply never asked for again and age out.
 *
 * <p><b>Tiers.</b> {@link io.strata.core.cache.PageStore} is the one interface, implemented by
 * {@link io.strata.core.cache.MemoryPageStore} (off-heap slots, optimistic copies),
 * {@link io.strata.core.cache.DiskPageStore} (page files in one or more
 * {@code CacheDir}s, each with a quota) and {@link io.strata.core.cache.TieredPageStore} (memory
 * in front of disk, inclusive; hot disk pages are promoted). Each tier orders its pages with an
 * {@link io.strata.core.cache.evict.EvictionPolicy} chosen by name: {@code lru} (the JDK's
 * access-ordered LinkedHashMap), {@code lfu}, or {@code tinylfu} (Caffeine's W-TinyLFU).
 *
 * <p><b>On disk.</b> {@code PageFile} is the format: a versioned header with the page's id, a
 * CRC32C per 64 KiB chunk and a CRC of the header, then the data. Pages are written to a staging
 * name and renamed into place; every read checks the chunks it touches; a missing, short or
 * corrupt page is dropped, counted and read from the under storage instead: a miss, never wrong
 * data. At open a directory's index is rebuilt from the page headers. Space is reserved (by
 * evicting) before a page is written, against the directory's quota and the file system's free
 * space floor ({@code free_space_ratio}); a directory that cannot be used is bypassed with one
 * warning and retried later.
 *
 * <p><b>Read path.</b> {@link io.strata.core.cache.PageCache} assembles a mount's cache from its
 * {@link io.strata.core.cache.PageStoreConfig} (bound from {@link io.strata.core.cache.CacheOptions}).
 * {@code PageReader} splits a read at page boundaries, serves hits, fetches a missing page whole
 * from a {@link io.strata.core.cache.PageSource} (the under-storage file), and hands it to a
 * bounded fill pool; until stored, the fetched page serves other reads of it, and concurrent
 * misses share one fetch. A full fill queue drops the fill rather than block a reader.
 *
 * <p><b>Metrics.</b> {@link io.strata.core.cache.CacheMetrics}: {@code strata.cache.*} per tier.
 */
package io.strata.core.cache;
