/**
 * The reliability suite of rma4j: faults with real processes, cleanup, access control of the shared files,
 * bad input, and load. Every job runs in a private base directory under /dev/shm ({@link
 * org.rma4j.test.ShmTestDirectory}) that must be empty after the test; rank programs are the {@code *Main}
 * classes, started as real JVMs through the launcher ({@link org.rma4j.reliability.Jobs}). Only the public
 * API is used, except where a fault needs a point inside one call: the test-scope hooks
 * {@code org.rma4j.NotifyFaults} and {@code org.rma4j.notify.StuckClaims} stop a rank between claiming
 * and publishing a notification slot. Nothing measures time in an assertion: times (detection after a
 * kill, CPU against wall time) are printed, and {@code @Timeout} only guards against hangs.
 *
 * <ul>
 *   <li>{@link org.rma4j.reliability.KilledRankTest}: a rank killed with SIGKILL while holding an exclusive
 *   lock, instead of entering a fence, between start and complete of PSCW, before posting, while flooding a
 *   full 4-entry notification ring, between claiming and publishing a slot of a notification ring (with and
 *   without its id recorded in the slot), and before a collective window creation; the survivors' blocking
 *   calls end with RankFailedException naming it, the launcher reports it, no file is left. Notifications
 *   a live rank published behind the dead rank's unpublished slot are all delivered, in order, once the
 *   ring gives that slot up.</li>
 *   <li>{@link org.rma4j.reliability.RandomKillTest}: 100 jobs of {@link org.rma4j.reliability.ChaosMain}
 *   killed at random points (a rank, or the whole {@code rmarun} JVM, after which {@code rmarun --clean} or
 *   {@code JobDirectory.sweepStale} removes what it left).</li>
 *   <li>{@link org.rma4j.reliability.SecurityTest}: directory 0700 and files 0600 seen from inside a live job,
 *   symbolic links never followed, corrupted or truncated control and window files rejected, directories that
 *   others may use or own refused, 128 random bits in job names.</li>
 *   <li>{@link org.rma4j.reliability.BadInputTest}: the one table of bad arguments and wrong call orders of
 *   the public API, run in thread mode, with the windows checked unchanged and the job still working.</li>
 *   <li>{@link org.rma4j.reliability.OversubscriptionTest}: 8 and 16 rank processes on few cores through
 *   every synchronization, and the CPU share of waiting ranks.</li>
 *   <li>{@link org.rma4j.reliability.SoakTest}: every kind of call mixed across 4 processes for
 *   {@code -Drma4j.soak.seconds} (20 by default).</li>
 *   <li>{@link org.rma4j.reliability.NotifySoakTest}: {@code -Drma4j.notify.soak.total} notifications
 *   (1,000,000 by default; the full soak is 10,000,000) from 3 producer processes to 1 consumer: none lost
 *   or duplicated, each source's order and each put's data kept, heap after GC and resident set flat from
 *   10 % of the traffic to the end (the command is in the test's Javadoc and the top-level README).</li>
 * </ul>
 */
package org.rma4j.reliability;
