/**
 * What a mount shows about itself, the same through either transport.
 *
 * <ul>
 *   <li>{@link io.strata.fuse.observe.FuseMeters}: a latency histogram per FUSE operation, errors by
 *       operation and errno, bytes read and written (docs/METRICS.md).</li>
 *   <li>{@link io.strata.fuse.observe.AccessLog}: one line per operation to each attached reader of
 *       {@code .accesslog}; with no reader attached a served request costs one volatile read.</li>
 *   <li>{@link io.strata.fuse.observe.ControlFiles}: {@code .stats} and {@code .accesslog}, the two
 *       files in the mount's root that are answered by the daemon itself and never listed.</li>
 * </ul>
 */
package io.strata.fuse.observe;
