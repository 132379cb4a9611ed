package io.strata.core.ufs.s3;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The XML bodies S3 answers requests sent past the SDK ({@link CrtObjectClient}) with, read into
 * the SDK's own types so that callers cannot tell which client sent the request: an error, and a
 * ListObjectsV2 page. Read as a stream (StAX) with a factory made once per thread: no document
 * tree, no parser configured per body, and no doctype (a body that declares one is refused).
 *
 * <p>Why not the DOM parser it used before: a new {@code DocumentBuilderFactory} and builder for
 * every body, and a tree of every page, made the first listing of a fresh volume CPU-bound on two
 * cores, in the parse and in compiling the DOM's code (docs/PERFORMANCE.md, thirty-fifth round).
 */
final class S3Xml {
    private S3Xml() {}

    /**
     * One factory per thread: the JDK's StAX factory is not documented as safe to share, and the
     * threads that parse (the CRT's event loops, the callers of its error paths) are few.
     */
    private static final ThreadLocal<XMLInputFactory> FACTORY = ThreadLocal.withInitial(S3Xml::newFactory);

    private static XMLInputFactory newFactory() {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        return factory;
    }

    /** S3's error, as the SDK would have made it: the status, and the code and message of its XML body. */
    static S3Exception serviceError(int status, byte[] payload) {
        String code = null;
        String message = null;
        String requestId = null;
        if (payload != null && payload.length > 0) {
            try {
                Map<String, String> error = new HashMap<>();
                read(payload, null, (name, reader) -> error.put(name, reader.getElementText()));
                code = error.get("Code");
                message = error.get("Message");
                requestId = error.get("RequestId");
            } catch (XMLStreamException notXml) {
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
     * here, as the SDK decodes them. S3 may name the encoding after the keys, so they are decoded
     * once the page is read. A body that is not such a page is a client error, retryable.
     */
    static ListObjectsV2Response listing(byte[] body) {
        Page page = new Page();
        try {
            read(body, "ListBucketResult", page::take);
        } catch (XMLStreamException e) {
            throw SdkClientException.create("ListObjectsV2 answered a body that is not a ListBucketResult: " + e.getMessage(), e);
        }
        return page.response();
    }

    /** What one child element of a document's root is turned into; it reads the element to its end. */
    @FunctionalInterface
    private interface ChildReader {
        void read(String name, XMLStreamReader reader) throws XMLStreamException;
    }

    /**
     * Reads {@code xml}, whose root must be {@code root} (any, if null: an error body is read
     * whatever a server names its root), handing each of the root's child elements to {@code child}.
     */
    private static void read(byte[] xml, String root, ChildReader child) throws XMLStreamException {
        XMLStreamReader reader = FACTORY.get().createXMLStreamReader(new ByteArrayInputStream(xml));
        try {
            reader.nextTag(); // past the prolog: a doctype there is an error
            if (root != null && !root.equals(reader.getLocalName())) {
                throw new XMLStreamException("the root element is <" + reader.getLocalName() + ">, not <" + root + ">");
            }
            children(reader, child);
        } finally {
            reader.close();
        }
    }

    /** Hands each child element of the element the reader is at to {@code child}, leaving the reader at its end tag. */
    private static void children(XMLStreamReader reader, ChildReader child) throws XMLStreamException {
        while (reader.nextTag() == XMLStreamConstants.START_ELEMENT) {
            child.read(reader.getLocalName(), reader);
        }
    }

    /** Reads past the end of the element the reader is at. */
    private static void skip(XMLStreamReader reader) throws XMLStreamException {
        for (int depth = 1; depth > 0; ) {
            switch (reader.next()) {
                case XMLStreamConstants.START_ELEMENT -> depth++;
                case XMLStreamConstants.END_ELEMENT -> depth--;
                default -> { }
            }
        }
    }

    /** A ListBucketResult as its elements arrive: the keys and prefixes kept as sent until the encoding is known. */
    private static final class Page {
        private final ListObjectsV2Response.Builder response = ListObjectsV2Response.builder();
        private final List<S3Object.Builder> objects = new ArrayList<>();
        private final List<String> objectKeys = new ArrayList<>();
        private final List<String> prefixes = new ArrayList<>();
        private String prefix;
        private String delimiter;
        private boolean encoded;

        void take(String name, XMLStreamReader reader) throws XMLStreamException {
            switch (name) {
                case "Contents" -> object(reader);
                case "CommonPrefixes" -> children(reader, (child, r) -> {
                    if (child.equals("Prefix")) {
                        prefixes.add(r.getElementText());
                    } else {
                        skip(r);
                    }
                });
                case "Name" -> response.name(reader.getElementText());
                case "Prefix" -> prefix = reader.getElementText();
                case "Delimiter" -> delimiter = reader.getElementText();
                case "EncodingType" -> encoded = "url".equals(reader.getElementText());
                case "IsTruncated" -> response.isTruncated(Boolean.parseBoolean(reader.getElementText()));
                case "NextContinuationToken" -> response.nextContinuationToken(reader.getElementText());
                case "KeyCount" -> response.keyCount(Integer.valueOf(reader.getElementText()));
                default -> skip(reader);
            }
        }

        private void object(XMLStreamReader reader) throws XMLStreamException {
            S3Object.Builder object = S3Object.builder();
            String[] key = new String[1];
            children(reader, (child, r) -> {
                switch (child) {
                    case "Key" -> key[0] = r.getElementText();
                    case "Size" -> object.size(Long.valueOf(r.getElementText()));
                    case "ETag" -> object.eTag(r.getElementText());
                    case "LastModified" -> object.lastModified(Instant.parse(r.getElementText()));
                    default -> skip(r);
                }
            });
            objects.add(object);
            objectKeys.add(key[0]);
        }

        ListObjectsV2Response response() {
            List<S3Object> contents = new ArrayList<>(objects.size());
            for (int i = 0; i < objects.size(); i++) {
                contents.add(objects.get(i).key(decoded(objectKeys.get(i))).build());
            }
            List<CommonPrefix> common = new ArrayList<>(prefixes.size());
            for (String p : prefixes) {
                common.add(CommonPrefix.builder().prefix(decoded(p)).build());
            }
            return response.prefix(decoded(prefix)).delimiter(decoded(delimiter))
                    .contents(contents).commonPrefixes(common).build();
        }

        private String decoded(String value) {
            return value == null || !encoded ? value : SdkHttpUtils.urlDecode(value);
        }
    }
}
