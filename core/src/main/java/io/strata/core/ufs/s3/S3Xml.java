package io.strata.core.ufs.s3;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The XML bodies S3 answers requests sent past the SDK ({@link CrtObjectClient}) with, read into
 * the SDK's own types so that callers cannot tell which client sent the request: an error, and a
 * ListObjectsV2 page. The JDK's DOM parser, with doctypes refused.
 */
final class S3Xml {
    private S3Xml() {}

    /** S3's error, as the SDK would have made it: the status, and the code and message of its XML body. */
    static S3Exception serviceError(int status, byte[] payload) {
        String code = null;
        String message = null;
        String requestId = null;
        if (payload != null && payload.length > 0) {
            try {
                Element error = parse(payload);
                code = text(error, "Code");
                message = text(error, "Message");
                requestId = text(error, "RequestId");
            } catch (IOException notXml) {
                message = new String(payload, StandardCharsets.UTF_8);
            }
        }
        if (code == null) {
            code = switch (status) {
                case 404 -> "NoSuchKey";
                case 412 -> "PreconditionFailed";
                case 403 -> "AccessDenied";
                default -> "Status" + status;
            };
        }
        String text = message != null ? message : code;
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .requestId(requestId)
                .message(text)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(text).serviceName("S3").build())
                .build();
    }

    /**
     * A ListObjectsV2 page, requested with {@code encoding-type=url}: keys, prefixes and the
     * delimiter come URL-encoded (XML 1.0 cannot carry every byte a key may hold) and are decoded
     * here, as the SDK decodes them. A body that is not such a page is a client error, retryable.
     */
    static ListObjectsV2Response listing(byte[] body) {
        Element result;
        try {
            result = parse(body);
        } catch (IOException e) {
            throw SdkClientException.create("ListObjectsV2 answered a body that is not XML: " + e.getMessage(), e);
        }
        if (!"ListBucketResult".equals(result.getTagName())) {
            throw SdkClientException.create("ListObjectsV2 answered <" + result.getTagName() + ">, not <ListBucketResult>");
        }
        boolean encoded = "url".equals(text(result, "EncodingType"));
        List<S3Object> objects = new ArrayList<>();
        List<CommonPrefix> prefixes = new ArrayList<>();
        for (Node node = result.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (!(node instanceof Element element)) {
                continue;
            }
            switch (element.getTagName()) {
                case "Contents" -> objects.add(S3Object.builder()
                        .key(decoded(text(element, "Key"), encoded))
                        .size(longOrNull(text(element, "Size")))
                        .eTag(text(element, "ETag"))
                        .lastModified(instantOrNull(text(element, "LastModified")))
                        .build());
                case "CommonPrefixes" -> prefixes.add(CommonPrefix.builder()
                        .prefix(decoded(text(element, "Prefix"), encoded)).build());
                default -> { }
            }
        }
        String keyCount = text(result, "KeyCount");
        return ListObjectsV2Response.builder()
                .name(text(result, "Name"))
                .prefix(decoded(text(result, "Prefix"), encoded))
                .delimiter(decoded(text(result, "Delimiter"), encoded))
                .isTruncated(Boolean.parseBoolean(text(result, "IsTruncated")))
                .nextContinuationToken(text(result, "NextContinuationToken"))
                .keyCount(keyCount == null ? null : Integer.valueOf(keyCount))
                .contents(objects)
                .commonPrefixes(prefixes)
                .build();
    }

    private static Element parse(byte[] xml) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
            return document.getDocumentElement();
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** The text of {@code parent}'s first child element named {@code name}, or null. */
    private static String text(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element.getTextContent();
            }
        }
        return null;
    }

    private static String decoded(String value, boolean encoded) {
        return value == null || !encoded ? value : SdkHttpUtils.urlDecode(value);
    }

    private static Long longOrNull(String value) {
        return value == null ? null : Long.valueOf(value);
    }

    private static Instant instantOrNull(String value) {
        return value == null ? null : Instant.parse(value);
    }
}
