/**
 * Process mode: starting a job of N JVMs on one machine and telling each process who it is.
 *
 * <p>{@link org.rma4j.launch.Launcher} is the Java API and {@link org.rma4j.launch.RmaRun} the
 * {@code rmarun} command (script {@code bin/rmarun}) over it; {@link org.rma4j.launch.JobEnvironment}
 * names the environment variables through which a rank learns its rank, the job size, the job
 * directory and its launcher. Every rank runs {@link org.rma4j.launch.RankMain}, which starts the rank's
 * watch on its launcher and then the program's main class.
 *
 * <h2>Promises</h2>
 * <ul>
 *   <li>The job directory and its control file exist before the first rank starts and are removed
 *   after the last rank ended, on every exit path of the launcher: normal end, a failed rank, an
 *   exception in the launcher, and a shutdown of its JVM (Ctrl-C, SIGTERM), which stops the ranks.</li>
 *   <li>A launcher killed with SIGKILL (which can run no cleanup) leaves nothing either: every rank
 *   watches its launcher through a pidfd and, when it is gone, writes a message naming itself and the
 *   launcher to the launcher's standard error, removes the job directory (idempotent, following no
 *   link: the last rank out leaves nothing) and halts with status 129. A rank that finds its launcher
 *   gone when it starts does the same at once. The next launch also sweeps the directories of dead
 *   launchers ({@code rmarun --clean}).</li>
 *   <li>Every output line of a rank reaches the sink whole, prefixed {@code [rank] }, in pieces of at
 *   most 64 KiB for longer lines, byte for byte for a {@code PrintStream} sink; lines of different ranks
 *   interleave in no particular order. Output that cannot be delivered fails the job (exit code 74)
 *   instead of vanishing.</li>
 *   <li>A rank that exits with a non-zero status is marked failed in the control file before the
 *   launcher does anything else, so peers waiting on it throw {@link org.rma4j.RankFailedException}; the other
 *   ranks get a grace period to end, then SIGTERM, then SIGKILL. The job's exit code is the first
 *   non-zero status in the order the ranks ended.</li>
 *   <li>A rank that exits with 0 without having joined the job is marked failed as well (its peers
 *   could never complete a collective call with it), without failing the job.</li>
 *   <li>A hung job says who waits for whom: {@code WaitReport} reads each rank's
 *   published wait state (call, window, peer, since when) and process state from the control file,
 *   of which the launcher keeps a descriptor open while the job runs (rank 0 removes its name). The launcher
 *   prints it when its timeout expires (then stops the job: exit code 124), on a shutdown of its JVM
 *   (Ctrl-C), when a rank fails while others are blocked, and once per stall when every rank still in the
 *   job has been blocked for the stall-report delay (the job goes on); {@code rmarun --status} prints it
 *   from another process.</li>
 * </ul>
 */
package org.rma4j.launch;
