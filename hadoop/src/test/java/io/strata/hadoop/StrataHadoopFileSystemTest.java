package io.strata.hadoop;

import io.strata.client.Caller;
import io.strata.client.StrataFileSystem;
import io.strata.client.VolumeFormat;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** strata:// over a local directory: what Hadoop's contract tests do not check. */
class StrataHadoopFileSystemTest {
    private TestVolume volume;
    private FileSystem fs;

    @BeforeEach
    void open() throws IOException {
        volume = TestVolume.local("unit");
        fs = volume.newClient();
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void aFileWrittenThroughHadoopIsReadByAClientOfTheSameMetastore() throws IOException {
        write(new Path("/dir/from-hadoop"), "written by Spark");

        try (StrataFileSystem mount = openClient()) {
            long fh = mount.open("/dir/from-hadoop", 0);
            ByteBuffer data = ByteBuffer.allocate(64);
            mount.read(fh, data, 0);
            mount.release(fh);
            assertThat(new String(data.array(), 0, data.position(), StandardCharsets.UTF_8)).isEqualTo("written by Spark");
        }
    }

    @Test
    void aFileWrittenByAClientOfTheSameMetastoreIsListedThroughHadoop() throws IOException {
        try (StrataFileSystem mount = openClient()) {
            long fh = mount.create("/from-mount", 0640, new Caller(0, 0));
            mount.write(fh, ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)), 0);
            mount.release(fh);
        }

        FileStatus[] listed = fs.listStatus(new Path("/"));

        assertThat(listed).extracting(status -> status.getPath().getName()).containsExactly("from-mount");
        assertThat(listed[0].getLen()).isEqualTo(3);
        assertThat(listed[0].getPermission().toShort()).isEqualTo((short) 0640);
    }

    @Test
    void readFullyPastTheEndFails() throws IOException {
        Path file = new Path("/f");
        try (FSDataOutputStream out = fs.create(file)) {
            out.write(new byte[1024]);
        }
        try (FSDataInputStream in = fs.open(file)) {
            in.readFully(0, new byte[1024]);
            assertThatThrownBy(() -> in.readFully(16, new byte[1024])).isInstanceOf(EOFException.class);
        }
    }

    @Test
    void vectoredReadsMergeRangesLessThanAPageApart() throws Exception {
        byte[] data = new byte[4 << 20];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        Path file = new Path("/vectored");
        try (FSDataOutputStream out = fs.create(file)) {
            out.write(data);
        }
        List<FileRange> ranges = List.of(FileRange.createFileRange(0, 100), FileRange.createFileRange(5000, 100),
                FileRange.createFileRange(3 << 20, 100));
        try (FSDataInputStream in = fs.open(file)) {
            in.readVectored(ranges, ByteBuffer::allocate);
            for (FileRange range : ranges) {
                ByteBuffer read = range.getData().get();
                assertThat(read.remaining()).isEqualTo(100);
                assertThat(read.get(50)).isEqualTo(data[(int) range.getOffset() + 50]);
            }
            IOStatistics stats = in.getIOStatistics();
            assertThat(stats.counters()).containsEntry(StreamStatisticNames.STREAM_READ_VECTORED_INCOMING_RANGES, 3L)
                    .containsEntry(StreamStatisticNames.STREAM_READ_VECTORED_COMBINED_RANGES, 2L);
        }
    }

    @Test
    void hflushMakesTheDataVisibleToAnotherClient() throws IOException {
        Path file = new Path("/log");
        try (FSDataOutputStream out = fs.create(file); FileSystem other = volume.newClient()) {
            out.write("first line\n".getBytes(StandardCharsets.UTF_8));
            out.hflush();

            assertThat(other.getFileStatus(file).getLen()).isEqualTo(11);
        }
    }

    @Test
    void aFileHasOneBlockLocationForItsWholeLength() throws IOException {
        Path file = write(new Path("/blocks"), "0123456789");

        BlockLocation[] locations = fs.getFileBlockLocations(fs.getFileStatus(file), 2, 5);

        assertThat(locations).hasSize(1);
        assertThat(locations[0].getOffset()).isZero();
        assertThat(locations[0].getLength()).isEqualTo(10);
    }

    @Test
    void ownersShowByNameAndNumbersWithoutOneStayNumbers() throws IOException {
        Path file = write(new Path("/owned"), "x");
        assertThat(fs.getFileStatus(file).getOwner())
                .isEqualTo(UserGroupInformation.getCurrentUser().getShortUserName());

        fs.setOwner(file, "54321", null);

        assertThat(fs.getFileStatus(file).getOwner()).isEqualTo("54321");
        assertThatThrownBy(() -> fs.setOwner(file, "no-such-user-here", null)).hasMessageContaining("unknown user");
    }

    @Test
    void extendedAttributesRoundTrip() throws IOException {
        Path file = write(new Path("/xattrs"), "x");

        fs.setXAttr(file, "user.origin", "spark".getBytes(StandardCharsets.UTF_8));

        assertThat(fs.listXAttrs(file)).containsExactly("user.origin");
        assertThat(new String(fs.getXAttr(file, "user.origin"), StandardCharsets.UTF_8)).isEqualTo("spark");
        fs.removeXAttr(file, "user.origin");
        assertThat(fs.getXAttrs(file)).isEmpty();
    }

    @Test
    void tasksCreatingFilesUnderOneNewDirectoryAtOnceAllSucceed() throws Exception {
        int tasks = 4;
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        try {
            // As Spark's tasks write through FileOutputCommitter: each creates its file, and with
            // it the parent directories that the others are making at the same moment.
            for (int job = 0; job < 20; job++) {
                String attempts = "/job" + job + "/_temporary/0/_temporary";
                List<Future<Path>> written = new ArrayList<>();
                for (int task = 0; task < tasks; task++) {
                    Path file = new Path(attempts + "/attempt_" + task + "/part-" + task);
                    written.add(pool.submit(() -> write(file, "task output")));
                }
                for (Future<Path> file : written) {
                    assertThat(fs.getFileStatus(file.get(30, TimeUnit.SECONDS)).getLen()).isEqualTo(11);
                }
                assertThat(fs.listStatus(new Path(attempts))).hasSize(tasks);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withoutAMetastoreTheErrorNamesTheKeys() {
        Configuration conf = new Configuration();

        assertThatThrownBy(() -> FileSystem.newInstance(java.net.URI.create("strata://nowhere/"), conf))
                .hasMessageContaining("fs.strata.meta").hasMessageContaining("fs.strata.nowhere.meta");
    }

    private Path write(Path file, String text) throws IOException {
        try (FSDataOutputStream out = fs.create(file)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    /** Another client of the volume, as a FUSE mount opens it: from the same metastore. */
    private StrataFileSystem openClient() throws IOException {
        String meta = volume.settings().get("fs.strata.unit.meta");
        Options options = new OptionsLoader(OptionRegistry.load()).set("meta", meta, "test")
                .set("state_dir", volume.dir().resolve("mount-state").toString(), "test").build();
        return StrataFileSystem.open(VolumeFormat.source(meta), options);
    }
}
