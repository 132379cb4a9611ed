/**
 * The namespace model of a volume and the {@link io.strata.meta.MetaStore} seam its engines implement.
 *
 * <p>Records ({@link io.strata.meta.Inode}, {@link io.strata.meta.Dentry}, ...) are the values that
 * cross the seam; {@link io.strata.meta.MetaStores#open(String)} picks an engine by URL scheme
 * from the {@link io.strata.meta.MetaStoreEngine}s that list themselves for
 * {@link java.util.ServiceLoader}: {@code memory://} ({@link io.strata.meta.memory}),
 * {@code sqlite:///path/meta.db}, {@code jdbc:postgresql://host/db} and
 * {@code jdbc:mariadb://host/db} (one JDBC engine, {@link io.strata.meta.jdbc}), or
 * {@code redis://host/db} ({@link io.strata.meta.redis}). {@code MetaStores} names no engine
 * and no engine names it: what they share is {@link io.strata.meta.VolumeFormat} (the format
 * version) and {@link io.strata.meta.MetaStoreUrls} (schemes, passwords). Every engine passes the one
 * conformance suite, {@code AbstractMetaStoreTest}, shipped in this module's test jar; the
 * shared engines also pass {@code AbstractSharedMetaStoreTest}.
 */
package io.strata.meta;
