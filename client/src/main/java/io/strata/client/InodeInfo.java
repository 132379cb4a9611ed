package io.strata.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.strata.meta.Inode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What {@code strata info} shows about one inode, as the JSON value of the virtual extended
 * attribute {@link StrataFileSystem#INFO_XATTR}: its attributes, where its data lives in the
 * under storage and at which version, and how many of its pages each cache tier holds.
 *
 * @param inode the attributes as callers see them (an open file's size included)
 * @param ufsPath the primary link's path, which is where the data lives in the under storage
 * @param openVersion the version this client's open handles read, or null when it is not open here
 * @param pageSize the page cache's page size, 0 without a page cache
 * @param cachedPages pages of the current version per tier, nearest first; empty without a page cache
 */
record InodeInfo(Inode inode, String ufsUri, String ufsPath, String openVersion, int pageSize,
                 Map<String, Long> cachedPages) {
    private static final JsonFactory JSON = new JsonFactory();

    InodeInfo {
        requireNonNull(inode, "inode is null");
        requireNonNull(ufsUri, "ufsUri is null");
        requireNonNull(ufsPath, "ufsPath is null");
        requireNonNull(cachedPages, "cachedPages is null");
    }

    byte[] toJson() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator json = JSON.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeNumberField("ino", inode.ino());
            json.writeStringField("type", inode.type().name().toLowerCase(Locale.ROOT));
            json.writeStringField("mode", String.format(Locale.ROOT, "%04o", inode.mode()));
            json.writeNumberField("uid", inode.uid());
            json.writeNumberField("gid", inode.gid());
            json.writeNumberField("size", inode.size());
            json.writeNumberField("nlink", inode.nlink());
            json.writeStringField("primary_link", "/" + ufsPath);
            json.writeStringField("ufs_uri", ufsUri);
            json.writeStringField("ufs_path", ufsPath);
            json.writeStringField("version", inode.ufsVersion());
            if (openVersion != null) {
                json.writeStringField("open_version", openVersion);
            }
            if (inode.isFile()) {
                json.writeNumberField("page_size", pageSize);
                json.writeNumberField("pages", pageSize == 0 ? 0 : (inode.size() + pageSize - 1) / pageSize);
                json.writeObjectFieldStart("cached_pages");
                for (Map.Entry<String, Long> tier : cachedPages.entrySet()) {
                    json.writeNumberField(tier.getKey(), tier.getValue());
                }
                json.writeEndObject();
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write JSON to memory", e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }
}
