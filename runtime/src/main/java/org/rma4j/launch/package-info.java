/**
 * Process mode: starting a job of N JVMs on one machine and telling each process who it is.
 *
 * <p>{@link org.rma4j.launch.Launcher} is the Java API and {@link org.rma4j.launch.RmaRun} the
 * {@code rmarun} command (script {@code bin/rmarun}) over it; {@link org.rma4j.launch.JobEnvironment}
 * names the environment variables through which a rank learns its rank, the job size and the job
 * directory.
 *
 * <h2>Promises</h2>
 * <ul>
 *   <li>The job directory and its control file exist before the first rank starts and are removed
 *   after the last rank ended, on every exit path of the launcher: normal end, a failed rank, an
 *   exception in the launcher, and a shutdown of its JVM (Ctrl-C, SIGTERM), which stops the ranks.
 *   Only a launcher killed with SIGKILL leaves its job directory behind.</li>
 *   <li>Every output line of a rank reaches the sink whole, prefixed {@code [rank] }; lines of
 *   different ranks interleave in no particular order.</li>
 *   <li>A rank that exits with a non-zero status is marked failed in the control file before the
 *   launcher does anything else, so peers waiting on it throw {@code PeerFailedException}; the other
 *   ranks get a grace period to end, then SIGTERM, then SIGKILL. The job's exit code is the first
 *   non-zero status in the order the ranks ended.</li>
 *   <li>A rank that exits with 0 without having joined the job is marked failed as well (its peers
 *   could never complete a collective call with it), without failing the job.</li>
 * </ul>
 */
package org.rma4j.launch;
