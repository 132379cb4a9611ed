package io.strata.core.ufs.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bodies S3 answers with, as S3 and MinIO write them (namespace, URL-encoded keys), read into
 * the SDK's types. The servers in the other tests answer the same requests end to end.
 */
class S3XmlTest {
    private static final String NS = "http://s3.amazonaws.com/doc/2006-03-01/";

    private static byte[] xml(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aListingPageGivesItsObjectsPrefixesAndContinuation() {
        ListObjectsV2Response page = S3Xml.listing(xml("""
                <?xml version="1.0" encoding="UTF-8"?>
                <ListBucketResult xmlns="%s">
                  <Name>bench</Name><Prefix>dir/</Prefix><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys>
                  <Delimiter>/</Delimiter><IsTruncated>true</IsTruncated>
                  <NextContinuationToken>token+1/=</NextContinuationToken>
                  <Contents>
                    <Key>dir/a</Key><LastModified>2026-11-30T13:33:52.123Z</LastModified>
                    <ETag>&quot;0123abcd&quot;</ETag><Size>4096</Size>
                    <Owner><ID>02d6</ID><DisplayName>minio</DisplayName></Owner><StorageClass>STANDARD</StorageClass>
                  </Contents>
                  <Contents><Key>dir/b</Key><LastModified>2026-11-30T13:33:53Z</LastModified><ETag>"e"</ETag><Size>0</Size></Contents>
                  <CommonPrefixes><Prefix>dir/sub/</Prefix></CommonPrefixes>
                </ListBucketResult>""".formatted(NS)));

        assertEquals("bench", page.name());
        assertEquals("dir/", page.prefix());
        assertEquals("/", page.delimiter());
        assertEquals(3, page.keyCount());
        assertTrue(page.isTruncated());
        assertEquals("token+1/=", page.nextContinuationToken());
        assertEquals(List.of(
                S3Object.builder().key("dir/a").size(4096L).eTag("\"0123abcd\"")
                        .lastModified(Instant.parse("2026-11-30T13:33:52.123Z")).build(),
                S3Object.builder().key("dir/b").size(0L).eTag("\"e\"")
                        .lastModified(Instant.parse("2026-11-30T13:33:53Z")).build()), page.contents());
        assertEquals(List.of(CommonPrefix.builder().prefix("dir/sub/").build()), page.commonPrefixes());
    }

    @Test
    void urlEncodedKeysPrefixesAndDelimiterAreDecodedWhereverTheEncodingIsNamed() {
        ListObjectsV2Response page = S3Xml.listing(xml("""
                <ListBucketResult xmlns="%s">
                  <Name>b</Name><Prefix>a%%20dir%%2F</Prefix><Delimiter>%%2F</Delimiter>
                  <Contents><Key>a%%20dir%%2F%%E6%%97%%A5+x%%25</Key><Size>1</Size></Contents>
                  <CommonPrefixes><Prefix>a%%20dir%%2F%%3Fq%%2F</Prefix></CommonPrefixes>
                  <IsTruncated>false</IsTruncated>
                  <EncodingType>url</EncodingType>
                </ListBucketResult>""".formatted(NS)));

        assertEquals("a dir/", page.prefix());
        assertEquals("/", page.delimiter());
        assertEquals("a dir/日 x%", page.contents().get(0).key());
        assertEquals("a dir/?q/", page.commonPrefixes().get(0).prefix());
        assertFalse(page.isTruncated());
    }

    @Test
    void anEmptyPageHasNoObjectsAndNoToken() {
        ListObjectsV2Response page = S3Xml.listing(xml(
                "<ListBucketResult xmlns=\"" + NS + "\"><Name>b</Name><Prefix></Prefix><KeyCount>0</KeyCount>"
                        + "<IsTruncated>false</IsTruncated></ListBucketResult>"));

        assertTrue(page.contents().isEmpty());
        assertTrue(page.commonPrefixes().isEmpty());
        assertNull(page.nextContinuationToken());
        assertEquals("", page.prefix());
    }

    @Test
    void aBodyThatIsNotAListingIsAClientError() {
        SdkClientException notXml = assertThrows(SdkClientException.class, () -> S3Xml.listing(xml("<html>oops")));
        assertTrue(notXml.getMessage().startsWith("ListObjectsV2 answered a body that is not a ListBucketResult"),
                notXml.getMessage());
        SdkClientException otherRoot = assertThrows(SdkClientException.class,
                () -> S3Xml.listing(xml("<Error><Code>AccessDenied</Code></Error>")));
        assertTrue(otherRoot.getMessage().contains("<Error>, not <ListBucketResult>"), otherRoot.getMessage());
    }

    @Test
    void aDoctypeIsRefusedSoNoEntityIsExpanded() {
        byte[] body = xml("""
                <?xml version="1.0"?>
                <!DOCTYPE ListBucketResult [<!ENTITY x SYSTEM "file:///etc/passwd">]>
                <ListBucketResult><Name>&x;</Name></ListBucketResult>""");

        assertThrows(SdkClientException.class, () -> S3Xml.listing(body));
    }

    @Test
    void anErrorBodyGivesS3sCodeMessageAndRequestId() {
        S3Exception error = S3Xml.serviceError(403, xml("""
                <?xml version="1.0" encoding="UTF-8"?>
                <Error><Code>SignatureDoesNotMatch</Code><Message>The signature did not match</Message>
                <Resource>/bench/k</Resource><RequestId>18A2C</RequestId></Error>"""));

        assertEquals(403, error.statusCode());
        assertEquals("SignatureDoesNotMatch", error.awsErrorDetails().errorCode());
        assertEquals("The signature did not match", error.awsErrorDetails().errorMessage());
        assertEquals("18A2C", error.requestId());
    }

    @Test
    void anErrorWithoutAnXmlBodyIsNamedByItsStatusAndKeepsTheBodyAsItsMessage() {
        S3Exception empty = S3Xml.serviceError(404, new byte[0]);
        assertEquals("NoSuchKey", empty.awsErrorDetails().errorCode());

        S3Exception text = S3Xml.serviceError(502, xml("Bad Gateway"));
        assertEquals("Status502", text.awsErrorDetails().errorCode());
        assertEquals("Bad Gateway", text.awsErrorDetails().errorMessage());
    }
}
