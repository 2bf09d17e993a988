package org.rma4j.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.JobDirectory;
import org.rma4j.RankFailedException;
import org.rma4j.shm.RankState;

/**
 * The program the launcher tests run in every rank. The first argument selects the behaviour:
 *
 * <pre>
 * echo [args...]                         print two stdout lines, one stderr line and the arguments
 * env                                    print what the environment and the control file say
 * exit RANK STATUS                       RANK halts with STATUS; the other ranks exit 0
 * await-failed RANK STATUS OTHER_STATUS  RANK halts with STATUS; the others wait until the launcher has
 *                                        marked RANK failed in the control file, then exit with OTHER_STATUS
 * kill-self RANK                         RANK sends itself SIGKILL; the others sleep
 * stubborn RANK STATUS                   the others install a shutdown hook that never returns and sleep;
 *                                        once they are ready RANK halts with STATUS
 * sleep                                  print "ready PID" and sleep
 * rma                                    join the job with Rma.init(), barrier, print "joined", close
 * rma-fail RANK STATUS                   join and barrier; then RANK halts with STATUS and the others
 *                                        barrier again, print the rank of the RankFailedException and
 *                                        exit 0 once every other survivor printed its own
 * long-line BYTES                        write BYTES bytes 'x' to stdout without a newline
 * random SEED BYTES                      write BYTES random bytes (java.util.Random(SEED)) to stdout
 * lines COUNT                            print COUNT numbered lines to stdout, then "done" to stderr
 * fence-loop                             join, then put and fence in a loop without end; "ready PID" after
 *                                        the first fence
 * spin                                   print "ready PID" and compute without end, without rma4j
 * await-file PATH                        print "ready PID", then wait until PATH exists and exit 0
 * fence-stall PATH                       join, allocate a window, fence, print "ready PID"; rank 0 fences
 *                                        again at once, the others only once PATH exists; a fence that
 *                                        throws prints "fence-error EXCEPTION" and halts with 3
 * </pre>
 */
final class RankProgram {
    private static final long SLEEP_MINUTES = 10;
    /** Prefix of the file each survivor of rma-fail creates in the job directory once it saw the failure. */
    private static final String RMA_FAIL_SEEN = "rma-fail-seen-";
    private static final String STUBBORN_READY = "stubborn-ready-";
    static final int FENCE_ERROR_STATUS = 3;

    private RankProgram() {
    }

    public static void main(final String[] args) throws Exception {
        final int rank = Integer.parseInt(System.getenv(JobEnvironment.RANK));
        final int size = Integer.parseInt(System.getenv(JobEnvironment.SIZE));
        final Path jobDir = Path.of(System.getenv(JobEnvironment.JOB_DIR));
        switch (args[0]) {
            case "echo" -> {
                System.out.println("out " + rank + " of " + size);
                System.err.println("err " + rank);
                System.out.println("args=" + String.join("|", Arrays.asList(args).subList(1, args.length)));
            }
            case "jvm-options" -> System.out.println("jvm-options="
                + String.join("|", java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));
            case "env" -> {
                try (ControlFile control = ControlFile.open(JobDirectory.open(jobDir).controlFile())) {
                    System.out.println(
                        "rank=" + rank + " size=" + size + " dir=" + jobDir + " controlRanks=" + control.ranks()
                            + " launcherPid=" + control.launcherPid() + " extra=" + System.getenv("RMA4J_TEST_EXTRA"));
                }
            }
            case "exit" -> {
                if (rank == Integer.parseInt(args[1])) {
                    Runtime.getRuntime().halt(Integer.parseInt(args[2]));
                }
            }
            case "await-failed" -> {
                final int victim = Integer.parseInt(args[1]);
                if (rank == victim) {
                    Runtime.getRuntime().halt(Integer.parseInt(args[2]));
                }
                awaitFailed(jobDir, victim);
                Runtime.getRuntime().halt(Integer.parseInt(args[3]));
            }
            case "kill-self" -> {
                if (rank == Integer.parseInt(args[1])) {
                    final String pid = Long.toString(ProcessHandle.current().pid());
                    new ProcessBuilder("kill", "-9", pid).start().waitFor();
                }
                sleep();
            }
            case "stubborn" -> stubborn(rank, size, jobDir, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "sleep" -> {
                System.out.println("ready " + ProcessHandle.current().pid());
                sleep();
            }
            case "rma" -> {
                try (RmaJob job = Rma.init()) {
                    job.barrier();
                    System.out.println("joined " + job.rank() + " of " + job.size());
                }
            }
            case "rma-fail" -> rmaFail(rank, size, jobDir, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "long-line" -> {
                final byte[] chunk = new byte[1 << 16];
                java.util.Arrays.fill(chunk, (byte)'x');
                long remaining = Long.parseLong(args[1]);
                while (remaining > 0) {
                    final int length = (int)Math.min(chunk.length, remaining);
                    System.out.write(chunk, 0, length);
                    remaining -= length;
                }
                System.out.flush();
            }
            case "random" -> {
                final byte[] bytes = new byte[Integer.parseInt(args[2])];
                new java.util.Random(Long.parseLong(args[1])).nextBytes(bytes);
                System.out.write(bytes, 0, bytes.length);
                System.out.flush();
            }
            case "lines" -> {
                for (int i = 0; i < Integer.parseInt(args[1]); i++) {
                    System.out.println("line " + i);
                }
                System.err.println("done");
            }
            case "fence-loop" -> fenceLoop();
            case "fence-stall" -> fenceStall(Path.of(args[1]));
            case "await-file" -> {
                System.out.println("ready " + ProcessHandle.current().pid());
                final Path go = Path.of(args[1]);
                while (!Files.exists(go)) {
                    Thread.sleep(10);
                }
            }
            case "spin" -> {
                System.out.println("ready " + ProcessHandle.current().pid());
                long x = 1;
                while (x != 0) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static void fenceLoop() {
        try (RmaJob job = Rma.init(); Window window = job.allocateShared(8L * job.size(), 8)) {
            final long[] value = new long[1];
            boolean ready = false;
            while (true) {
                window.fence(0);
                if (!ready) {
                    System.out.println("ready " + ProcessHandle.current().pid());
                    ready = true;
                }
                value[0]++;
                window.put(value, 0, 1, (job.rank() + 1) % job.size(), job.rank());
            }
        }
    }

    private static void fenceStall(final Path go) throws InterruptedException {
        final RmaJob job = Rma.init();
        final Window window = job.allocateShared(8L * job.size(), 8);
        window.fence(0);
        System.out.println("ready " + ProcessHandle.current().pid());
        if (job.rank() != 0) {
            while (!Files.exists(go)) {
                Thread.sleep(10);
            }
        }
        try {
            window.fence(0);
        } catch (final RuntimeException e) {
            System.out.println("fence-error " + e);
            System.out.flush();
            Runtime.getRuntime().halt(FENCE_ERROR_STATUS);
        }
        System.out.println("fenced");
        window.close();
        job.close();
    }

    private static void rmaFail(final int rank, final int size, final Path jobDir, final int victim, final int status)
        throws IOException, InterruptedException {
        final RmaJob job = Rma.init();
        job.barrier();
        if (rank == victim) {
            Runtime.getRuntime().halt(status);
        }
        try {
            job.barrier();
            System.out.println("barrier passed");
        } catch (final RankFailedException e) {
            System.out.println("peer failed: " + e.rank());
            // NOTE: leave only once every survivor has seen the failure: a survivor that exits is gone too, and
            // one that looked after that exit and before the launcher declared the victim failed could name it.
            Files.createFile(jobDir.resolve(RMA_FAIL_SEEN + rank));
            for (int other = 0; other < size; other++) {
                while (other != victim && !Files.exists(jobDir.resolve(RMA_FAIL_SEEN + other))) {
                    Thread.sleep(10);
                }
            }
        }
        Runtime.getRuntime().halt(0);
    }

    private static void awaitFailed(final Path jobDir, final int rank) throws InterruptedException {
        try (ControlFile control = ControlFile.open(JobDirectory.open(jobDir).controlFile())) {
            while (control.state(rank) != RankState.FAILED) {
                Thread.sleep(10);
            }
        }
    }

    private static void stubborn(final int rank, final int size, final Path jobDir, final int victim, final int status)
        throws IOException, InterruptedException {
        if (rank == victim) {
            for (int other = 0; other < size; other++) {
                while (other != victim && !Files.exists(jobDir.resolve(STUBBORN_READY + other))) {
                    Thread.sleep(10);
                }
            }
            Runtime.getRuntime().halt(status);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(RankProgram::sleepQuietly));
        Files.createFile(jobDir.resolve(STUBBORN_READY + rank));
        sleep();
    }

    private static void sleep() throws InterruptedException {
        TimeUnit.MINUTES.sleep(SLEEP_MINUTES);
    }

    private static void sleepQuietly() {
        sleepQuietly(TimeUnit.MINUTES, SLEEP_MINUTES);
    }

    private static void sleepQuietly(final TimeUnit unit, final long amount) {
        try {
            unit.sleep(amount);
        } catch (final InterruptedException ignored) {
            // exit
        }
    }
}
