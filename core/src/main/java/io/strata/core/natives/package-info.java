/**
 * Native libraries that Java dependencies (sqlite-jdbc, the AWS CRT) carry inside their jars, kept
 * once in the user's cache instead of extracted into the temp directory by every JVM.
 */
package io.strata.core.natives;
