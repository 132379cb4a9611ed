/**
 * The namespace model of a volume and the {@link io.strata.meta.MetaStore} seam its engines implement.
 *
 * <p>Records ({@link io.strata.meta.Inode}, {@link io.strata.meta.Dentry}, ...) are the values that
 * cross the seam; {@link io.strata.meta.MetaStores#open(String)} picks an engine by URL scheme:
 * {@code memory://} ({@link io.strata.meta.memory}), {@code sqlite:///path/meta.db}
 * ({@link io.strata.meta.sql}), {@code jdbc:postgresql://host/db} ({@link io.strata.meta.postgres})
 * or {@code redis://host/db} ({@link io.strata.meta.redis}). Every engine passes the one
 * conformance suite, {@code AbstractMetaStoreTest}, shipped in this module's test jar; the
 * shared engines also pass {@code AbstractSharedMetaStoreTest}.
 */
package io.strata.meta;
