package io.strata.fuse;

import io.strata.core.conf.OptionException;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FuseArgumentsTest {
    private static final URI SOURCE = URI.create("file:///data/src");

    private static List<String> fuseOptions(String... dashO) {
        Options options = new OptionsLoader(OptionRegistry.load()).commandLine(List.of(dashO)).build();
        String[] arguments = FuseArguments.build(SOURCE, options);
        assertThat(arguments[0]).isEqualTo("-o");
        return List.of(arguments[1].split(","));
    }

    @Test
    void defaultsAskForLargeRequestsAutoCacheAndOneSecondTimeouts() {
        assertThat(fuseOptions()).contains("big_writes", "max_read=1048576", "max_write=1048576", "auto_cache",
                "attr_timeout=1", "entry_timeout=1", "default_permissions", "use_ino", "subtype=strata",
                "fsname=strata:/data/src");
    }

    @Test
    void explicitKernelCacheReplacesTheAutoCacheDefault() {
        assertThat(fuseOptions("kernel_cache")).contains("kernel_cache").doesNotContain("auto_cache");
    }

    @Test
    void directIoReplacesTheAutoCacheDefault() {
        assertThat(fuseOptions("direct_io")).contains("direct_io").doesNotContain("auto_cache");
    }

    @Test
    void contradictingCacheModesAreRefused() {
        assertThatThrownBy(() -> fuseOptions("direct_io,kernel_cache"))
                .isInstanceOf(OptionException.class)
                .hasMessageContaining("choose one");
        assertThatThrownBy(() -> fuseOptions("kernel_cache,auto_cache"))
                .isInstanceOf(OptionException.class);
    }

    @Test
    void turningAutoCacheOffLeavesNoCacheOption() {
        assertThat(fuseOptions("auto_cache=false")).doesNotContain("auto_cache", "kernel_cache", "direct_io");
    }

    @Test
    void accessAndOwnershipOptionsPassThrough() {
        assertThat(fuseOptions("allow_other,ro,uid=1000,gid=100,umask=027,attr_timeout=2.5s"))
                .contains("allow_other", "ro", "uid=1000", "gid=100", "umask=027", "attr_timeout=2.5");
    }

    @Test
    void commasInTheSourcePathCannotSplitTheOptionList() {
        Options options = new OptionsLoader(OptionRegistry.load()).build();
        String[] arguments = FuseArguments.build(URI.create("file:///data/a,b"), options);
        assertThat(arguments[1]).contains("fsname=strata:/data/a_b,");
    }

    @Test
    void anS3SourceShowsItsBucketAndPrefix() {
        Options options = new OptionsLoader(OptionRegistry.load()).build();
        String[] arguments = FuseArguments.build(URI.create("s3://bucket/data/set"), options);
        assertThat(arguments[1]).contains("fsname=strata:s3://bucket/data/set,");
    }
}
