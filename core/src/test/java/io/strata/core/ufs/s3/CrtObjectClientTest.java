package io.strata.core.ufs.s3;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which GETs the CRT client receives into a buffer of its pool ({@code GET_OBJECT}), which into one it grows. */
class CrtObjectClientTest {
    @Test
    void aRangeLongerThanOneMiBIsReceivedIntoThePool() {
        assertTrue(CrtObjectClient.receivesIntoPool("bytes=0-" + CrtObjectClient.LONGEST_GROWN_BODY));
        assertTrue(CrtObjectClient.receivesIntoPool("bytes=8388608-16777215"));
    }

    @Test
    void aRangeOfOneMiBOrLessGrowsABufferOfItsOwn() {
        assertFalse(CrtObjectClient.receivesIntoPool("bytes=0-" + (CrtObjectClient.LONGEST_GROWN_BODY - 1)));
        assertFalse(CrtObjectClient.receivesIntoPool("bytes=1000-1000"));
    }

    @Test
    void aWholeObjectIsReceivedIntoThePool() {
        assertTrue(CrtObjectClient.receivesIntoPool(null));
    }

    @Test
    void aSuffixOpenOrMultipleRangeIsSentAsItIs() {
        assertFalse(CrtObjectClient.receivesIntoPool("bytes=-100"));
        assertFalse(CrtObjectClient.receivesIntoPool("bytes=100-"));
        assertFalse(CrtObjectClient.receivesIntoPool("bytes=0-1,4194304-8388607"));
    }
}
