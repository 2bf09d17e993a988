/**
 * JDK Flight Recorder events of rma4j's blocking calls (lock wait, fence, PSCW start and wait,
 * notification wait, full notification ring, barrier, Messaging receive and send): one event type
 * per call, category {@code rma4j}, named {@code org.rma4j.*}, each with the window, the peer waited
 * for, the tag where there is one, and the call. {@link org.rma4j.events.Waits} is the one begin /
 * commit helper the runtime calls at each site.
 *
 * <p>Not public API: the event names and fields are the contract (they are what a recording shows),
 * the classes may change between versions. Record them with the {@code rma4j.jfc} settings of the
 * runtime's resources ({@code -XX:StartFlightRecording:settings=...}); a recording with the JDK's
 * {@code default} or {@code profile} settings records them too, above each event's default threshold.
 */
package org.rma4j.events;
