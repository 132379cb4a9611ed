/**
 * The threads Strata's pools run on: every pool names its threads after what they do (so that a
 * thread dump, a profile or a log line says whose thread it is) and makes them daemons, so that a
 * pool left open never keeps the JVM alive after its mount or job has ended. And what threads share
 * that has to be given back once ({@link io.strata.core.concurrent.Holders}).
 */
package io.strata.core.concurrent;
