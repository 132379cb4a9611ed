package io.strata.core.ufs.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class ObjectKeysTest {
    @Test
    void aKeyOfUnreservedCharactersAndSlashesIsItsOwnEncoding() {
        String key = "data-r1024/tree_1/d002/f0003.parquet~1";
        assertSame(key, ObjectKeys.encodedForPath(key));
    }

    @Test
    void anyKeyIsEncodedAsTheSdkEncodesIt() {
        List<String> keys = List.of("a b", "a+b", "a*b", "100%", "x=1&y=2", "é/ü", "日本/語", "q?", "a#b", "~/.:@!$'(),;",
                "tab\there", "\uD83D\uDE00/x", "", "/", "a//b/");
        for (String key : keys) {
            assertEquals(SdkHttpUtils.urlEncodeIgnoreSlashes(key), ObjectKeys.encodedForPath(key), key);
        }
    }

    @Test
    void everyAsciiCharacterIsEncodedAsTheSdkEncodesIt() {
        for (char c = 0; c < 128; c++) {
            String key = "k" + c + "/v";
            assertEquals(SdkHttpUtils.urlEncodeIgnoreSlashes(key), ObjectKeys.encodedForPath(key), "char " + (int) c);
        }
    }
}
