package org.rma4j.bench.harness;

/**
 * One ping-pong of the loaded section ({@link LoadedSection}): the median half round trip of one
 * implementation and row at one payload size, beside a number of CPU-bound background processes.
 *
 * @param impl           {@link Rows#RMA4J} (the PingPong example) or {@link Rows#OPENMPI}.
 * @param row            {@code send-recv} or {@code notified-put}.
 * @param sizeBytes      payload size.
 * @param backgroundLoad CPU-bound processes running meanwhile (0: none).
 * @param medianNs       median half round trip, in ns.
 * @param iterations     timed round trips.
 */
public record LoadedMeasurement(String impl, String row, long sizeBytes, int backgroundLoad, double medianNs,
    int iterations) {
}
