package io.strata.hadoop;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.IOException;

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
}
