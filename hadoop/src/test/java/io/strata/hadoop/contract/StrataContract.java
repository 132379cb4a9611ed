package io.strata.hadoop.contract;

import io.strata.hadoop.TestVolume;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

import java.io.IOException;

/**
 * strata:// for Hadoop's FileSystem contract tests: what it promises in {@code contract/strata.xml},
 * over one volume per under storage, formatted once per test JVM and shared by the test classes
 * (each works under its own test directory, which the suite deletes after each test).
 */
public final class StrataContract extends AbstractFSContract {
    private static TestVolume local;
    private static TestVolume s3;

    private final TestVolume volume;
    private FileSystem fs;

    private StrataContract(Configuration conf, TestVolume volume) {
        super(conf);
        addConfResource("contract/strata.xml");
        this.volume = volume;
    }

    /** Over a local directory. */
    public static synchronized StrataContract local(Configuration conf) {
        if (local == null) {
            local = TestVolume.local("contract-local");
        }
        return new StrataContract(conf, local);
    }

    /** Over a bucket of S3Proxy (or STRATA_TEST_S3_ENDPOINT's). */
    public static synchronized StrataContract s3(Configuration conf) {
        if (s3 == null) {
            s3 = TestVolume.s3("contract-s3");
        }
        return new StrataContract(conf, s3);
    }

    @Override
    public void init() throws IOException {
        super.init();
        volume.configure(getConf());
        fs = FileSystem.get(volume.uri(), getConf());
    }

    @Override
    public FileSystem getTestFileSystem() {
        return fs;
    }

    @Override
    public String getScheme() {
        return "strata";
    }

    @Override
    public Path getTestPath() {
        return new Path("/test");
    }
}
