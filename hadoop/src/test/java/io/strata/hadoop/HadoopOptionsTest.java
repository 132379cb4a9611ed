package io.strata.hadoop;

import io.strata.core.cache.CacheOptions;
import io.strata.core.conf.DataSize;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.ufs.s3.S3Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The mount options from a Hadoop configuration: fs.strata.KEY, fs.strata.NAME.KEY, credential providers. */
class HadoopOptionsTest {
    private static final OptionRegistry REGISTRY = OptionRegistry.load();

    @Test
    void aKeyForTheVolumeWinsOverTheKeyForEveryVolume() throws IOException {
        Configuration conf = new Configuration(false);
        conf.set("fs.strata.local_cache_page_size", "1MiB");
        conf.set("fs.strata.logs.local_cache_page_size", "256KiB");

        Options logs = HadoopOptions.bind(conf, "logs", REGISTRY, Map.of());
        Options other = HadoopOptions.bind(conf, "other", REGISTRY, Map.of());

        assertThat(logs.get(CacheOptions.PAGE_SIZE)).isEqualTo(DataSize.ofKiB(256));
        assertThat(other.get(CacheOptions.PAGE_SIZE)).isEqualTo(DataSize.ofMiB(1));
    }

    @Test
    void theConfigurationWinsOverTheEnvironment() throws IOException {
        Configuration conf = new Configuration(false);
        conf.set("fs.strata.s3.region", "eu-west-1");

        Options options = HadoopOptions.bind(conf, "v", REGISTRY,
                Map.of("STRATA_S3_REGION", "us-west-2", "STRATA_S3_ENDPOINT", "http://127.0.0.1:9000"));

        assertThat(options.get(S3Options.REGION)).isEqualTo("eu-west-1");
        assertThat(options.get(S3Options.ENDPOINT)).isEqualTo("http://127.0.0.1:9000");
    }

    @Test
    void aSecretComesFromACredentialProviderAndIsNeverShown(@TempDir Path dir) throws IOException {
        Configuration conf = new Configuration(false);
        conf.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, "localjceks://file" + dir.resolve("creds.jceks"));
        CredentialProvider provider = CredentialProviderFactory.getProviders(conf).get(0);
        provider.createCredentialEntry("fs.strata.s3a.secretKey", "from-the-store".toCharArray());
        provider.flush();
        conf.set("fs.strata.s3a.secretKey", "from-the-configuration");

        Options options = HadoopOptions.bind(conf, "v", REGISTRY, Map.of());

        assertThat(options.get(S3Options.SECRET_KEY)).isEqualTo("from-the-store");
        assertThat(options.describe()).doesNotContain("from-the-store");
    }

    @Test
    void aBadValueNamesItsHadoopKey() {
        Configuration conf = new Configuration(false);
        conf.set("fs.strata.v.s3.endpoint", "ftp://example");

        assertThatThrownBy(() -> HadoopOptions.bind(conf, "v", REGISTRY, Map.of()))
                .isInstanceOf(OptionException.class).hasMessageContaining("fs.strata.v.s3.endpoint");
    }
}
