package org.rma4j.launch;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.rma4j.shm.JobDirectory;

/**
 * The watch a rank keeps on its launcher, so that a launcher killed with SIGKILL (which can neither stop
 * its ranks nor remove the job directory) leaves no process and no file behind.
 *
 * <p>Started by {@link RankMain} before the program's {@code main}, it opens a pidfd of the launcher
 * ({@code pidfd_open(2)}) and blocks a daemon thread in {@code poll(2)} on it until the launcher has
 * exited. The launcher is identified by the pid and start time it passes in the environment
 * ({@link JobEnvironment#LAUNCHER_PID}, {@link JobEnvironment#LAUNCHER_START_MILLIS}): the pidfd is taken
 * first and the identity checked after, so a pid reused by another process is never watched in the
 * launcher's place. A launcher already gone when the rank starts is noticed at once. When the launcher
 * is gone, the rank
 * <ol>
 *   <li>writes a message naming itself and the launcher to the launcher's standard error (the rank
 *   opened it through {@code /proc/<launcher>/fd/2} when it started, since the rank's own output went
 *   to pipes only the launcher read) and to its own standard error;</li>
 *   <li>removes the job directory ({@link JobDirectory#delete()}: idempotent and following no link, so
 *   every rank does it and the last one out leaves nothing, whichever ends last);</li>
 *   <li>halts with {@link #EXIT_LAUNCHER_GONE}, without running shutdown hooks, which could block: the
 *   job cannot go on without the launcher that forwards its output and collects its exit statuses.</li>
 * </ol>
 * Where {@code pidfd_open} is not available (Linux before 5.3, no native access) the thread checks the
 * launcher every {@link #FALLBACK_PERIOD_MS} ms instead.
 *
 * <p>{@code prctl(PR_SET_PDEATHSIG)} is not used: the signal comes when the launcher's thread that
 * started the rank ends, not the launcher, and a signal that kills the rank leaves it no time to remove
 * the job directory and say why.
 */
final class LauncherWatch {
    /**
     * Exit status of a rank that ended because its launcher is gone: 128 + SIGHUP, as a process whose
     * controlling process went away.
     */
    static final int EXIT_LAUNCHER_GONE = 129;
    /** Period of the launcher check where no pidfd can be had. */
    static final long FALLBACK_PERIOD_MS = 100;

    private static final long SYS_PIDFD_OPEN = 434;
    private static final short POLLIN = 1;
    private static final int EINTR = 4;
    private static final long START_TOLERANCE_MS = 1000;

    private final int rank;
    private final long launcherPid;
    private final long launcherStartMillis;
    private final Path jobDirectory;
    private final OutputStream launcherError;

    private LauncherWatch(final int rank, final long launcherPid, final long launcherStartMillis,
        final Path jobDirectory) {
        this.rank = rank;
        this.launcherPid = launcherPid;
        this.launcherStartMillis = launcherStartMillis;
        this.jobDirectory = jobDirectory;
        this.launcherError = openLauncherError(launcherPid);
    }

    /**
     * Starts the watch this process's environment asks for; does nothing in a process that no launcher
     * started.
     */
    static void startFromEnvironment() {
        final String pid = System.getenv(JobEnvironment.LAUNCHER_PID);
        final String start = System.getenv(JobEnvironment.LAUNCHER_START_MILLIS);
        final String dir = System.getenv(JobEnvironment.JOB_DIR);
        if (pid == null || start == null || dir == null) {
            return;
        }
        final int rank = parseOr(System.getenv(JobEnvironment.RANK), -1);
        final long launcherPid;
        final long launcherStart;
        try {
            launcherPid = Long.parseLong(pid);
            launcherStart = Long.parseLong(start);
        } catch (final NumberFormatException e) {
            System.err.println(Launcher.MESSAGE_PREFIX + "rank " + rank + ": " + JobEnvironment.LAUNCHER_PID + "=" + pid
                + " / " + JobEnvironment.LAUNCHER_START_MILLIS + "=" + start + " are not numbers; the rank does not "
                + "watch its launcher");
            return;
        }
        final LauncherWatch watch = new LauncherWatch(rank, launcherPid, launcherStart, Path.of(dir));
        final long pidfd = Native.pidfdOpen(watch.launcherPid);
        if (!watch.isLauncher()) {
            watch.launcherGone(); // gone before this rank could watch it: the pid is free or reused
        }
        Thread.ofPlatform().daemon().name("rma4j-launcher-watch").start(() -> watch.watch(pidfd));
    }

    private void watch(final long pidfd) {
        if (pidfd < 0 || !Native.awaitReadable(pidfd) || isLauncher()) {
            while (isLauncher()) {
                try {
                    TimeUnit.MILLISECONDS.sleep(FALLBACK_PERIOD_MS);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        launcherGone();
    }

    /**
     * Whether the launcher still runs: this process's parent is its pid, or the pid runs a process that
     * started when the launcher did.
     */
    private boolean isLauncher() {
        if (ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) == launcherPid) {
            return true;
        }
        final Optional<ProcessHandle> handle = ProcessHandle.of(launcherPid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        final long started = handle.get().info().startInstant().map(instant -> instant.toEpochMilli()).orElse(0L);
        return started == 0 || Math.abs(started - launcherStartMillis) < START_TOLERANCE_MS;
    }

    private void launcherGone() {
        final String message = Launcher.MESSAGE_PREFIX + "rank " + rank + " (process " + ProcessHandle.current().pid()
            + "): the job's launcher (process " + launcherPid + ") is gone; ending the rank and removing the job "
            + "directory " + jobDirectory + "\n";
        final byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        if (launcherError != null) {
            try {
                launcherError.write(bytes);
                launcherError.flush();
            } catch (final IOException ignored) {
                // the terminal or file is gone too
            }
        }
        final PrintStream err = System.err;
        err.write(bytes, 0, bytes.length);
        err.flush();
        try {
            JobDirectory.open(jobDirectory).delete();
        } catch (final RuntimeException ignored) {
            // gone already: another rank removed it
        }
        Runtime.getRuntime().halt(EXIT_LAUNCHER_GONE);
    }

    /**
     * Opens the launcher's standard error for appending, through procfs, while the launcher runs.
     */
    private static OutputStream openLauncherError(final long pid) {
        try {
            return new FileOutputStream("/proc/" + pid + "/fd/2", true);
        } catch (final IOException | SecurityException e) {
            return null;
        }
    }

    private static int parseOr(final String value, final int fallback) {
        try {
            return value == null ? fallback : Integer.parseInt(value);
        } catch (final NumberFormatException e) {
            return fallback;
        }
    }

    /** {@code pidfd_open} and {@code poll} through the FFM API. */
    private static final class Native {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final MethodHandle SYSCALL = downcall("syscall", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.firstVariadicArg(1));
        private static final MethodHandle POLL = downcall("poll", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT), Linker.Option.captureCallState("errno"));

        private Native() {
        }

        /**
         * @return a pidfd of {@code pid}, or -1 if there is none (no such process, or no pidfd_open).
         */
        static long pidfdOpen(final long pid) {
            if (SYSCALL == null || POLL == null
                || !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
                return -1;
            }
            try {
                final long fd = (long)SYSCALL.invokeExact(SYS_PIDFD_OPEN, pid, 0L);
                return fd >= 0 ? fd : -1;
            } catch (final Throwable t) {
                return -1;
            }
        }

        /**
         * Blocks until {@code fd} is readable (for a pidfd: the process has exited).
         *
         * @return false if poll failed.
         */
        static boolean awaitReadable(final long fd) {
            final MemorySegment errnoState = Arena.global().allocate(Linker.Option.captureStateLayout());
            final MemorySegment pollfd = Arena.global().allocate(8, 4);
            pollfd.set(ValueLayout.JAVA_INT, 0, (int)fd);
            pollfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
            while (true) {
                pollfd.set(ValueLayout.JAVA_SHORT, 6, (short)0);
                final int ready;
                try {
                    ready = (int)POLL.invokeExact(errnoState, pollfd, 1L, -1);
                } catch (final Throwable t) {
                    return false;
                }
                if (ready > 0) {
                    return true;
                }
                final int errno = errnoState.get(ValueLayout.JAVA_INT,
                    Linker.Option.captureStateLayout().byteOffset(MemoryLayout.PathElement.groupElement("errno")));
                if (ready < 0 && errno != EINTR) {
                    return false;
                }
            }
        }

        private static MethodHandle downcall(final String name, final FunctionDescriptor descriptor,
            final Linker.Option... options) {
            try {
                return LINKER.defaultLookup().find(name)
                    .map(symbol -> LINKER.downcallHandle(symbol, descriptor, options)).orElse(null);
            } catch (final RuntimeException e) {
                // IllegalCallerException when native access is not enabled
                return null;
            }
        }
    }
}
