/**
 * The namespace model of a volume and the {@link io.strata.meta.MetaStore} seam its engines implement.
 *
 * <p>Records ({@link io.strata.meta.Inode}, {@link io.strata.meta.Dentry}, ...) are the values that
 * cross the seam; {@link io.strata.meta.MetaStores#open(String)} picks an engine by URL scheme:
 * {@code memory://} ({@link io.strata.meta.memory}) or {@code sqlite:///path/meta.db}
 * ({@link io.strata.meta.sql}). Every engine passes the one conformance suite,
 * {@code AbstractMetaStoreTest}, shipped in this module's test jar.
 */
package io.strata.meta;
