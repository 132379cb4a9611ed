/**
 * The heap metadata cache: {@link io.strata.client.metacache.CachedMetaStore} remembers inodes
 * and name lookups (negative ones too, for less time) in a Caffeine cache in front of any
 * metastore engine, and keeps them right across this client's own changes.
 */
package io.strata.client.metacache;
