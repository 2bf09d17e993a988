package org.rma4j.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.rma4j.shm.ControlFile;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.RankState;
import org.rma4j.shm.WaitState;

/**
 * Says who waits for whom in a running job, one line per rank, from its control file: the blocking call
 * each rank published ({@link WaitState}: call, window, peer, since when), the ranks a collective call
 * still waits for (those not blocked in it themselves: they have not entered it, or entered it and do not
 * progress, as a stopped process), and the state of each rank's
 * process ({@code /proc/<pid>/stat}: stopped, running, sleeping). Used by {@code rmarun --status}, by
 * {@code rmarun --timeout} and on Ctrl-C.
 */
final class WaitReport {
    private WaitReport() {
    }

    /**
     * Opens the control file of a running job from another process: by its name while it has one, else
     * through the descriptor its launcher keeps open ({@code /proc/<launcherPid>/fd}).
     *
     * @param directory   the job directory.
     * @param launcherPid the pid of the job's launcher.
     * @throws IllegalStateException if neither is there.
     */
    static ControlFile openControl(final Path directory, final long launcherPid) {
        final Path control = directory.resolve(JobDirectory.CONTROL_FILE_NAME);
        if (Files.exists(control)) {
            try {
                return ControlFile.open(control);
            } catch (final RuntimeException e) {
                // removed meanwhile: look for the launcher's descriptor
            }
        }
        final String name = control.toString();
        try (DirectoryStream<Path> descriptors = Files
            .newDirectoryStream(Path.of("/proc", Long.toString(launcherPid), "fd"))) {
            for (final Path descriptor : descriptors) {
                final String target;
                try {
                    target = Files.readSymbolicLink(descriptor).toString();
                } catch (final IOException e) {
                    continue;
                }
                if (target.equals(name) || target.equals(name + " (deleted)")) {
                    // NOTE: through the launcher's descriptor, a link the kernel keeps, to a file of the same user
                    try (FileChannel channel = FileChannel.open(descriptor, StandardOpenOption.READ,
                        StandardOpenOption.WRITE)) {
                        return ControlFile.open(descriptor, channel);
                    }
                }
            }
        } catch (final IOException e) {
            throw new IllegalStateException("cannot list the descriptors of rmarun " + launcherPid + ": " + e, e);
        }
        throw new IllegalStateException("rmarun " + launcherPid + " holds no control file of " + directory);
    }

    /**
     * @return whether any rank has published a wait state: whether a report says more than the ranks' states.
     */
    static boolean anyWaiting(final ControlFile control) {
        for (int rank = 0; rank < control.ranks(); rank++) {
            if (control.waitState(rank) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param control the job's control file.
     * @param nowMillis the current epoch time, for the durations.
     * @return one line per rank, e.g. {@code "rank 0 (pid 123, sleeping): in fence on window 0 (collective
     *         call #3) for 2.1 s, waiting for rank 2"}.
     */
    static List<String> lines(final ControlFile control, final long nowMillis) {
        final int ranks = control.ranks();
        final int[] latest = new int[ranks];
        final WaitState[] waits = new WaitState[ranks];
        for (int rank = 0; rank < ranks; rank++) {
            latest[rank] = Math.max(sequence(control.call(rank, 0)), sequence(control.call(rank, 1)));
            waits[rank] = control.waitState(rank);
        }
        final List<String> lines = new ArrayList<>();
        for (int rank = 0; rank < ranks; rank++) {
            final RankState state = control.state(rank);
            final long pid = control.pid(rank);
            final StringBuilder line = new StringBuilder("rank ").append(rank).append(" (");
            line.append(pid != 0 ? "pid " + pid + ", " + processState(pid) : state.toString().toLowerCase(Locale.ROOT));
            line.append("): ");
            final WaitState wait = waits[rank];
            if (state != RankState.JOINED) {
                line.append(describe(state));
                if (wait != null) {
                    line.append("; it was blocked in ").append(WaitDescriptions.describe(wait)).append(" for ")
                        .append(seconds(nowMillis - wait.sinceMillis()));
                }
            } else if (wait == null) {
                line.append("not blocked in an rma4j call");
                if (latest[rank] > 0) {
                    line.append(" (last collective call #").append(latest[rank]).append(')');
                }
            } else {
                line.append("in ").append(WaitDescriptions.describe(wait)).append(" for ")
                    .append(seconds(nowMillis - wait.sinceMillis()));
                if (WaitDescriptions.collective(wait)) {
                    final List<Integer> missing = new ArrayList<>();
                    for (int peer = 0; peer < ranks; peer++) {
                        if (peer != rank && !blockedIn(waits[peer], wait.callNumber())
                            && latest[peer] <= wait.callNumber()) {
                            missing.add(peer);
                        }
                    }
                    if (!missing.isEmpty()) {
                        line.append(", waiting for rank").append(missing.size() == 1 ? " " : "s ")
                            .append(String.join(", ", missing.stream().map(String::valueOf).toList()));
                    }
                }
            }
            lines.add(line.toString());
        }
        return lines;
    }

    private static String describe(final RankState state) {
        return switch (state) {
            case EMPTY, JOINING -> "has not joined the job yet";
            case FINISHED -> "has left the job";
            case FAILED -> "failed";
            case ABORTED -> "stopped after another rank failed";
            case JOINED -> "joined";
            case ELSEWHERE -> "runs on another node";
        };
    }

    /**
     * @return e.g. "2.1 s" (at least 0.1 s: a published wait has lasted at least one liveness period).
     */
    static String seconds(final long millis) {
        return String.format(Locale.ROOT, "%.1f s", Math.max(100, millis) / 1000.0);
    }

    private static boolean blockedIn(final WaitState wait, final int callNumber) {
        return wait != null && wait.collective() && wait.callNumber() == callNumber;
    }

    private static int sequence(final long call) {
        return (int)(call >>> 32);
    }

    /**
     * @return the state of a process as {@code ps} names it, from {@code /proc/<pid>/stat}.
     */
    static String processState(final long pid) {
        final String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
        } catch (final IOException | RuntimeException e) {
            return "gone";
        }
        final int close = stat.lastIndexOf(')');
        final char code = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
        return switch (code) {
            case 'R' -> "running";
            case 'S' -> "sleeping";
            case 'D' -> "in uninterruptible sleep";
            case 'T' -> "stopped by a signal (SIGSTOP, SIGTSTP)";
            case 't' -> "stopped by a debugger";
            case 'Z' -> "exited, not yet reaped";
            default -> "state " + code;
        };
    }
}
