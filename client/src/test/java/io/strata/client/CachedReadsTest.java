package io.strata.client;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.cache.CacheMetrics;
import io.strata.core.cache.DiskPageStore;
import io.strata.core.cache.DiskSpace;
import io.strata.core.cache.PageCache;
import io.strata.core.cache.PageStoreConfig;
import io.strata.core.ufs.UnderFileSystems;
import io.strata.meta.MetaStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reads through the page cache as the file system does them: never stale after a write or a
 * change behind the mount, cached once read or written. Fills run on the calling thread here, so
 * what a test reads next is exactly what the cache holds.
 */
class CachedReadsTest {
    static final int PAGE = 4096;
    static final Caller USER = new Caller(0, 0);

    @TempDir
    Path source;
    @TempDir
    Path cacheDir;
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    StrataFileSystem fs;

    @BeforeEach
    void open() throws IOException {
        fs = openFs(true);
    }

    StrataFileSystem openFs(boolean cacheOnWrite) throws IOException {
        PageStoreConfig config = new PageStoreConfig(List.of(new DiskPageStore.Dir(cacheDir, 1 << 20)), PAGE,
                16 * PAGE, "lru", 0.0, cacheOnWrite, 0);
        PageCache cache = PageCache.open(config, new CacheMetrics(meters), Runnable::run, null, DiskSpace.SYSTEM,
                System::nanoTime);
        return new StrataFileSystem(MetaStores.open("memory://"), UnderFileSystems.open(source.toUri()), "memory://",
                false, new DataCache(cache, "volume"), meters);
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    double fetches() {
        return meters.find("strata.cache.fetches").tag("tier", "ufs").counter().count();
    }

    byte[] readAll(String path) throws IOException {
        long fh = fs.open(path, 0);
        try {
            ByteBuffer dst = ByteBuffer.allocate((int) fs.getattr(path).size() + 100);
            int total = 0;
            int n;
            while ((n = fs.read(fh, dst, total)) > 0) {
                total += n;
            }
            byte[] out = new byte[total];
            dst.flip().get(out);
            return out;
        } finally {
            fs.release(fh);
        }
    }

    void write(String path, byte[] data, long offset) throws IOException {
        long fh = fs.open(path, 1);
        try {
            fs.write(fh, ByteBuffer.wrap(data), offset);
            fs.flush(fh);
        } finally {
            fs.release(fh);
        }
    }

    static byte[] random(int seed, int length) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void aSecondReadOfAFileFetchesNothing() throws IOException {
        byte[] data = random(1, 5 * PAGE + 17);
        Files.write(source.resolve("f"), data);
        assertThat(readAll("/f")).isEqualTo(data);
        double after = fetches();
        assertThat(after).isEqualTo(6);
        assertThat(readAll("/f")).isEqualTo(data);
        assertThat(fetches()).isEqualTo(after);
    }

    @Test
    void aReadAfterAWriteThroughTheMountSeesTheWrite() throws IOException {
        Files.write(source.resolve("f"), random(1, 3 * PAGE));
        readAll("/f");
        long fh = fs.open("/f", 2);
        try {
            byte[] patch = "patched".getBytes(StandardCharsets.US_ASCII);
            fs.write(fh, ByteBuffer.wrap(patch), PAGE + 10);
            ByteBuffer dst = ByteBuffer.allocate(7);
            fs.read(fh, dst, PAGE + 10);
            assertThat(dst.array()).isEqualTo(patch);
            fs.flush(fh);
            dst.clear();
            fs.read(fh, dst, PAGE + 10);
            assertThat(dst.array()).isEqualTo(patch);
        } finally {
            fs.release(fh);
        }
        byte[] expected = Files.readAllBytes(source.resolve("f"));
        assertThat(readAll("/f")).isEqualTo(expected);
    }

    @Test
    void aFileChangedBehindTheMountIsNeverServedFromOldPages() throws IOException {
        Path file = source.resolve("f");
        Files.write(file, random(1, 2 * PAGE));
        assertThat(readAll("/f")).isEqualTo(random(1, 2 * PAGE));
        Files.write(file, random(2, 2 * PAGE)); // same size: only the mtime tells
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 5000));
        assertThat(readAll("/f")).isEqualTo(random(2, 2 * PAGE));
    }

    @Test
    void truncateThenReadSeesTheShorterFile() throws IOException {
        Files.write(source.resolve("f"), random(1, 3 * PAGE));
        readAll("/f");
        fs.truncate("/f", PAGE + 5);
        assertThat(readAll("/f")).isEqualTo(java.util.Arrays.copyOf(random(1, 3 * PAGE), PAGE + 5));
    }

    @Test
    void writtenPagesAreCachedAtFlushSoReadingThemBackFetchesNothing() throws IOException {
        byte[] data = random(3, 4 * PAGE + 100);
        long fh = fs.create("/new", 0644, USER);
        for (int off = 0; off < data.length; off += 1000) {
            fs.write(fh, ByteBuffer.wrap(data, off, Math.min(1000, data.length - off)), off);
        }
        fs.release(fh);
        double before = fetches();
        assertThat(readAll("/new")).isEqualTo(data);
        assertThat(fetches()).isEqualTo(before);
    }

    @Test
    void withoutCacheOnWriteWrittenPagesAreFetchedOnFirstRead() throws IOException {
        fs.close();
        fs = openFs(false);
        byte[] data = random(3, 2 * PAGE);
        long fh = fs.create("/new", 0644, USER);
        fs.write(fh, ByteBuffer.wrap(data), 0);
        fs.release(fh);
        assertThat(readAll("/new")).isEqualTo(data);
        assertThat(fetches()).isEqualTo(2);
    }

    @Test
    void aPartlyWrittenPageIsNotCachedFromTheWriteAlone() throws IOException {
        Files.write(source.resolve("f"), random(1, 2 * PAGE));
        write("/f", "xy".getBytes(StandardCharsets.US_ASCII), 100);
        byte[] expected = Files.readAllBytes(source.resolve("f"));
        assertThat(readAll("/f")).isEqualTo(expected);
        assertThat(fetches()).isEqualTo(2);
    }

    @Test
    void theCachedXattrReportsCachedAndTotalBytes() throws IOException {
        Files.write(source.resolve("f"), random(1, 3 * PAGE + 1));
        assertThat(new String(fs.getxattr("/f", StrataFileSystem.CACHED_XATTR).orElseThrow(),
                StandardCharsets.US_ASCII)).isEqualTo("0 " + (3 * PAGE + 1));
        readAll("/f");
        assertThat(new String(fs.getxattr("/f", StrataFileSystem.CACHED_XATTR).orElseThrow(),
                StandardCharsets.US_ASCII)).isEqualTo((3 * PAGE + 1) + " " + (3 * PAGE + 1));
        assertThat(fs.listxattr("/f")).isEmpty();
        assertThatThrownBy(() -> fs.setxattr("/f", StrataFileSystem.CACHED_XATTR, new byte[1],
                io.strata.meta.XattrMode.UPSERT)).hasMessageContaining("cannot be set");
    }
}
