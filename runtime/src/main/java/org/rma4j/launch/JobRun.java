package org.rma4j.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.rma4j.shm.ControlFile;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.RankState;
import org.rma4j.shm.WaitState;

/**
 * One run of a {@link Launcher}: starts the ranks, watches them end, stops the job when one fails and
 * cleans up on every path.
 */
final class JobRun {
    /*
     * Threads: the caller of run() (the "main" thread) owns the control file and the exit loop; the
     * process reaper completes each rank's onExit() future and queues the rank's exit; one pump thread
     * per rank stream forwards output; the shutdown hook runs only if the JVM exits during run().
     *
     * Invariants: every process is started and recorded while holding this object's monitor, and no
     * process is started once the hook has begun (shuttingDown), so the hook sees every rank it must
     * stop. The job directory exists from before the first rank starts until after the last one ended
     * (or was killed by the hook). Exits are queued in the order the reaper saw them, which is the
     * time order the job's exit code follows.
     */

    /** Phases of the exit loop. */
    private enum Phase {
        /** No rank has failed. */
        RUNNING,
        /** A rank failed; the others may still end by themselves until the grace deadline. */
        GRACE,
        /** SIGTERM sent to the remaining ranks; SIGKILL follows at the deadline. */
        TERMINATING,
        /** SIGKILL sent; waiting for the remaining exits. */
        KILLING
    }

    private record RankExit(int rank, int status) {
    }

    private static final long PUMP_DRAIN_NS = TimeUnit.SECONDS.toNanos(2);
    /** How often a running job's wait states are read for {@link #reportStall}. */
    private static final long STALL_CHECK_NS = TimeUnit.SECONDS.toNanos(1);

    private final Launcher launcher;
    private final int ranks;
    private final Object sinkLock = new Object();
    private final BlockingQueue<RankExit> exits = new LinkedBlockingQueue<>();
    private final List<OutputPump> pumps = new ArrayList<>();
    private final Process[] processes; // guarded by this
    private boolean shuttingDown; // guarded by this
    private JobDirectory jobDirectory; // guarded by this
    private volatile ControlFile control;
    private FileChannel statusChannel;
    private boolean timedOut;
    /** Per rank the start of the wait last reported as a stall ({@link #reportStall}), -1 for a rank not in it. */
    private long[] reportedStall;

    JobRun(final Launcher launcher) {
        this.launcher = launcher;
        this.ranks = launcher.ranks();
        this.processes = new Process[ranks];
    }

    JobResult run() throws InterruptedException {
        final Thread hook = Thread.ofPlatform().name("rmarun-shutdown").unstarted(this::onShutdown);
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            // Jobs whose launcher died (SIGKILL leaves no chance to clean up) are removed first.
            JobDirectory.sweepStale(launcher.baseDirectory());
            final JobDirectory directory = JobDirectory.create(launcher.baseDirectory());
            synchronized (this) {
                jobDirectory = directory;
            }
            control = ControlFile.create(directory.controlFile(), ranks, ProcessHandle.current().pid());
            statusChannel = openForStatus(directory);
            startRanks(directory);
            return checkOutput(awaitRanks(directory));
        } finally {
            cleanUp();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (final IllegalStateException ignored) {
                // the JVM is shutting down: the hook runs (or ran) and cleans up as well
            }
        }
    }

    private void startRanks(final JobDirectory directory) {
        final List<String> command = launcher.command();
        // NOTE: a pinned rank starts as taskset, which starts even if the java it is to run is missing, and fails.
        final Path java = Path.of(command.getFirst());
        if (java.isAbsolute() && !Files.isExecutable(java)) {
            throw new UncheckedIOException("cannot start rank 0 with " + java + ": not an executable file",
                new NoSuchFileException(java.toString()));
        }
        final ProcessHandle self = ProcessHandle.current();
        final long startMillis = self.info().startInstant().map(instant -> instant.toEpochMilli()).orElse(0L);
        for (int rank = 0; rank < ranks; rank++) {
            final ProcessBuilder builder = new ProcessBuilder(launcher.commandOf(rank, command));
            if (launcher.outputDirectory() != null) {
                builder.redirectErrorStream(true);
                builder.redirectOutput(launcher.outputDirectory().resolve("rank." + rank).toFile());
            }
            final Map<String, String> environment = builder.environment();
            environment.putAll(launcher.environment());
            environment.put(JobEnvironment.RANK, Integer.toString(rank));
            environment.put(JobEnvironment.SIZE, Integer.toString(ranks));
            environment.put(JobEnvironment.JOB_DIR, directory.path().toString());
            environment.put(JobEnvironment.LAUNCHER_PID, Long.toString(self.pid()));
            environment.put(JobEnvironment.LAUNCHER_START_MILLIS, Long.toString(startMillis));
            final Process process;
            synchronized (this) {
                if (shuttingDown) {
                    throw new IllegalStateException("the JVM is shutting down; rank " + rank + " was not started");
                }
                try {
                    process = builder.start();
                } catch (final IOException e) {
                    throw new UncheckedIOException(
                        "cannot start rank " + rank + " with " + command.get(0) + ": " + e.getMessage(), e);
                }
                processes[rank] = process;
            }
            closeQuietly(process);
            pumps.add(OutputPump.start(process.getInputStream(), rank, "standard output", launcher.outputSink(),
                sinkLock, "rmarun-out-" + rank));
            pumps.add(OutputPump.start(process.getErrorStream(), rank, "standard error", launcher.errorSink(), sinkLock,
                "rmarun-err-" + rank));
            final int exitingRank = rank;
            process.onExit().thenAccept(ended -> exits.add(new RankExit(exitingRank, ended.exitValue())));
        }
    }

    /**
     * Keeps a descriptor of the control file open while the job runs: rank 0 removes the file's name once
     * every rank mapped it, and {@code rmarun --status} then opens it through {@code /proc/<pid>/fd}
     * ({@link WaitReport#openControl}).
     */
    private static FileChannel openForStatus(final JobDirectory directory) {
        try {
            return FileChannel.open(directory.controlFile(), StandardOpenOption.READ);
        } catch (final IOException e) {
            return null; // rmarun --status cannot see this job; the job itself does not need it
        }
    }

    /**
     * The next step of stopping the job when the current phase's deadline passed: the job's timeout ends
     * RUNNING (with a report of what each rank waits for), the grace period ends GRACE (both terminate the
     * ranks), and the kill delay ends TERMINATING (the ranks are killed).
     *
     * @return the new phase.
     */
    private Phase escalate(final Phase phase) {
        if (phase == Phase.RUNNING) {
            timedOut = true;
            errorLine(Launcher.MESSAGE_PREFIX + "the job did not end within " + launcher.timeout().toSeconds()
                + " s (--timeout); stopping it. What each rank waits for:");
            report();
            signalAll(false);
            return Phase.TERMINATING;
        } else if (phase == Phase.GRACE) {
            signalAll(false);
            return Phase.TERMINATING;
        }
        signalAll(true);
        return Phase.KILLING;
    }

    /**
     * Reports the first rank that failed and, when others still run and wait, what each waits for.
     */
    private void reportFirstFailure(final String message, final int remaining) {
        errorLine(Launcher.MESSAGE_PREFIX + message + (remaining > 0 ? "; stopping the job" : ""));
        if (remaining > 0 && WaitReport.anyWaiting(control)) {
            // e.g. a wait timeout (rma4j.wait.timeout.ms): say who waited for whom
            errorLine(Launcher.MESSAGE_PREFIX + "what each rank waits for:");
            report();
        }
    }

    /**
     * Reports, once per stall, a job whose every rank still in it has been blocked in an rma4j call (a published
     * {@link WaitState}) for {@code stallMillis} or more: only a peer ends such a wait, so no rank can go on
     * (e.g. a rank whose program threw waits in the collective close of its try-with-resources while a peer
     * waits for its notification). The job is not stopped: a thread of a rank outside the waits may still end
     * it, and {@code --timeout} is the option that stops a job.
     */
    private void reportStall(final long stallMillis) {
        final ControlFile file = control;
        if (file == null) {
            return;
        }
        final long nowMillis = System.currentTimeMillis();
        final long[] since = new long[ranks];
        boolean anyBlocked = false;
        try {
            for (int rank = 0; rank < ranks; rank++) {
                since[rank] = -1;
                if (file.state(rank) != RankState.JOINED) {
                    continue;
                }
                final WaitState wait = file.waitState(rank);
                if (wait == null || nowMillis - wait.sinceMillis() < stallMillis) {
                    return;
                }
                since[rank] = wait.sinceMillis();
                anyBlocked = true;
            }
        } catch (final RuntimeException e) {
            return; // the job is ending: its control file is being closed
        }
        if (!anyBlocked || Arrays.equals(since, reportedStall)) {
            return;
        }
        reportedStall = since;
        errorLine(Launcher.MESSAGE_PREFIX + "every rank in the job has been blocked in an rma4j call for "
            + WaitReport.seconds(stallMillis) + " or more, and only a peer can end such a wait: the job looks"
            + " deadlocked (it goes on; --timeout stops a job that runs too long). What each rank waits for:");
        report();
    }

    private JobResult awaitRanks(final JobDirectory directory) throws InterruptedException {
        final Integer[] statuses = new Integer[ranks];
        int remaining = ranks;
        int failedRank = -1;
        String failure = null;
        Phase phase = Phase.RUNNING;
        final boolean timeLimited = !launcher.timeout().isZero();
        long deadlineNs = System.nanoTime() + launcher.timeout().toNanos();
        final long stallMillis = launcher.stallReport().toMillis();
        while (remaining > 0) {
            final boolean deadline = phase == Phase.GRACE || phase == Phase.TERMINATING
                || phase == Phase.RUNNING && timeLimited;
            final boolean watchStalls = phase == Phase.RUNNING && stallMillis > 0;
            final RankExit exit;
            if (!deadline && !watchStalls) {
                exit = exits.take();
            } else {
                final long untilDeadlineNs = deadline ? deadlineNs - System.nanoTime() : Long.MAX_VALUE;
                exit = exits.poll(watchStalls ? Math.min(untilDeadlineNs, STALL_CHECK_NS) : untilDeadlineNs,
                    TimeUnit.NANOSECONDS);
            }
            if (exit == null) {
                if (deadline && deadlineNs - System.nanoTime() <= 0) {
                    phase = escalate(phase);
                    if (phase == Phase.TERMINATING) {
                        deadlineNs = System.nanoTime() + Launcher.KILL_DELAY.toNanos();
                    }
                } else if (watchStalls) {
                    reportStall(stallMillis);
                }
                continue;
            }
            remaining--;
            statuses[exit.rank()] = exit.status();
            if (exit.status() != 0 && timedOut) {
                control.markFailed(exit.rank());
            } else if (exit.status() != 0) {
                // NOTE: marked before anything else, so that peers waiting on this rank fail fast.
                control.markFailed(exit.rank());
                final String message = "rank " + exit.rank() + " exited with " + ExitStatus.describe(exit.status());
                if (failedRank < 0) {
                    failedRank = exit.rank();
                    failure = message;
                    if (!isShuttingDown()) {
                        reportFirstFailure(message, remaining);
                    }
                    phase = Phase.GRACE;
                    deadlineNs = System.nanoTime() + launcher.grace().toNanos();
                } else if (phase == Phase.GRACE && !isShuttingDown()) {
                    errorLine(Launcher.MESSAGE_PREFIX + message);
                }
            } else if (control.state(exit.rank()) == RankState.EMPTY) {
                // A rank that ended without joining would leave peers waiting for it forever. Not a failure
                // of the job (programs need not use rma4j in every rank), but peers must not wait on it.
                control.markFailed(exit.rank());
            }
        }
        if (timedOut) {
            return new JobResult(Launcher.EXIT_TIMEOUT, Arrays.asList(statuses), failedRank,
                Optional.of("the job did not end within " + launcher.timeout().toSeconds() + " s"), directory.path());
        }
        final int exitCode = failedRank < 0 ? 0 : statuses[failedRank];
        return new JobResult(exitCode, Arrays.asList(statuses), failedRank, Optional.ofNullable(failure),
            directory.path());
    }

    /**
     * Waits for the output of the ended ranks to be delivered and fails a job that succeeded if part of it
     * was lost (a failed sink): output is never lost silently.
     */
    private JobResult checkOutput(final JobResult result) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + PUMP_DRAIN_NS;
        String lost = null;
        int lostRank = -1;
        for (int i = 0; i < pumps.size(); i++) {
            final OutputPump pump = pumps.get(i);
            if (!pump.await(deadlineNs)) {
                errorLine(Launcher.MESSAGE_PREFIX + "rank " + i / 2 + " ended but its "
                    + (i % 2 == 0 ? "standard output" : "standard error")
                    + " is still open (a process it started holds it); "
                    + "what it writes from now on is forwarded only while rmarun runs");
            }
            if (pump.failure() != null && lost == null) {
                lostRank = i / 2;
                lost = "output of rank " + lostRank + " was lost (" + pump.describeFailure() + ")";
            }
        }
        if (lost == null) {
            return result;
        }
        errorLine(Launcher.MESSAGE_PREFIX + lost);
        if (!result.succeeded()) {
            return new JobResult(result.exitCode(), result.rankExitCodes(), result.failedRank(),
                Optional.of(result.failureMessage().orElse("") + "; " + lost), result.jobDirectory());
        }
        return new JobResult(Launcher.EXIT_OUTPUT_LOST, result.rankExitCodes(), lostRank, Optional.of(lost),
            result.jobDirectory());
    }

    /**
     * Sends SIGTERM ({@code forcibly} false) or SIGKILL to every rank still alive; SIGKILL also reaches
     * the rank's descendants, which would otherwise keep its output pipes open.
     */
    private void signalAll(final boolean forcibly) {
        for (final Process process : snapshot()) {
            // NOTE: through the handle, not Process.destroy*, which also closes the pipes and would lose what the
            // rank prints while it stops.
            if (forcibly) {
                final List<ProcessHandle> descendants = process.descendants().toList();
                process.toHandle().destroyForcibly();
                descendants.forEach(ProcessHandle::destroyForcibly);
            } else {
                process.toHandle().destroy();
            }
        }
    }

    /**
     * Terminates whatever still runs (only after an exception or interrupt), waits for the output to be
     * delivered, unmaps the control file and removes the job directory.
     */
    private void cleanUp() {
        boolean interrupted = Thread.interrupted();
        if (!snapshot().isEmpty()) {
            signalAll(true);
        }
        final long deadlineNs = System.nanoTime() + PUMP_DRAIN_NS;
        for (final OutputPump pump : pumps) {
            try {
                pump.await(deadlineNs);
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (control != null) {
            control.close();
        }
        if (statusChannel != null) {
            try {
                statusChannel.close();
            } catch (final IOException ignored) {
                // nothing to release
            }
        }
        deleteJobDirectory();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Shutdown hook: stops the ranks (SIGTERM, then SIGKILL after {@link Launcher#KILL_DELAY}) and
     * removes the job directory.
     */
    private void onShutdown() {
        final List<Process> alive;
        synchronized (this) {
            shuttingDown = true;
            alive = snapshot();
        }
        if (!alive.isEmpty()) {
            errorLine(Launcher.MESSAGE_PREFIX + "shutting down; stopping " + alive.size() + " rank(s). What each rank"
                + " waits for:");
            report();
            alive.forEach(process -> process.toHandle().destroy());
            awaitExit(alive, System.nanoTime() + Launcher.KILL_DELAY.toNanos());
            signalAll(true);
            awaitExit(alive, System.nanoTime() + Launcher.KILL_DELAY.toNanos());
        }
        deleteJobDirectory();
    }

    /**
     * Writes what each rank waits for ({@link WaitReport}) to the error sink.
     */
    private void report() {
        final ControlFile file = control;
        if (file == null) {
            return;
        }
        try {
            for (final String line : WaitReport.lines(file, System.currentTimeMillis())) {
                errorLine(Launcher.MESSAGE_PREFIX + "  " + line);
            }
        } catch (final RuntimeException e) {
            errorLine(Launcher.MESSAGE_PREFIX + "  cannot read the ranks' wait states: " + e);
        }
    }

    private static void awaitExit(final List<Process> processes, final long deadlineNs) {
        for (final Process process : processes) {
            try {
                process.waitFor(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private synchronized boolean isShuttingDown() {
        return shuttingDown;
    }

    private synchronized List<Process> snapshot() {
        final List<Process> alive = new ArrayList<>();
        for (final Process process : processes) {
            if (process != null && process.isAlive()) {
                alive.add(process);
            }
        }
        return alive;
    }

    private void deleteJobDirectory() {
        final JobDirectory directory;
        synchronized (this) {
            directory = jobDirectory;
        }
        if (directory != null && !directory.delete()) {
            errorLine(Launcher.MESSAGE_PREFIX + "could not remove the job directory " + directory);
        }
    }

    private void errorLine(final String line) {
        synchronized (sinkLock) {
            try {
                launcher.errorSink().message(line);
            } catch (final RuntimeException ignored) {
                // the message is also in the job result
            }
        }
    }

    private static void closeQuietly(final Process process) {
        try {
            // Ranks read an empty standard input.
            process.getOutputStream().close();
        } catch (final IOException ignored) {
            // the rank already exited
        }
    }
}
