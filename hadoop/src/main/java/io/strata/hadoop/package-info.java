/**
 * {@code strata://}: the Hadoop {@link org.apache.hadoop.fs.FileSystem} of a Strata volume, for Spark
 * and other Hadoop clients ({@link io.strata.hadoop.StrataHadoopFileSystem}).
 *
 * <p>A module of its own rather than part of {@code client}: the client stays free of Hadoop (a
 * FUSE mount never loads it, and Hadoop's few hundred transitive dependencies never reach the CLI's
 * jar), Hadoop itself is {@code provided} here (Spark and Hadoop bring theirs), and this module
 * builds its own jar for their class path, {@code hadoop/target/strata-hadoop.jar}: the client and
 * everything it needs, with the libraries Spark also brings (Jackson, Netty, Caffeine, the AWS
 * SDK...) relocated under {@code io.strata.shaded} so neither side sees the other's versions.
 */
package io.strata.hadoop;
