/**
 * Time as a dependency: {@link dev.modelgateway.time.Ticker} for durations, beside the JDK's
 * {@link java.time.InstantSource} for wall-clock times. The composition root passes the system clocks; tests pass a
 * settable one.
 *
 * <p>Imports nothing of ours. Pure.
 */
package dev.modelgateway.time;
