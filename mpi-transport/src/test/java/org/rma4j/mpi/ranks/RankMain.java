package org.rma4j.mpi.ranks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiConsumer;

import org.rma4j.mpi.Mpi;
import org.rma4j.mpi.MpiComm;

/**
 * The program every rank of the binding's MPI jobs runs: {@code RankMain SCENARIO...} initializes MPI, runs
 * the scenarios in order and finalizes. A scenario prints {@code R<rank> <scenario> key=value ...} lines
 * that the tests read; a scenario that throws prints {@code R<rank> <scenario> FAILED <exception>} and the
 * rank goes on with the next one (the binding returns MPI errors as exceptions). The last line of a rank is
 * {@code R<rank> end}; the exit status is the number of failed scenarios.
 */
public final class RankMain {
    /** Scenario name -> body. */
    static final Map<String, BiConsumer<Mpi, Arena>> SCENARIOS = Map.ofEntries(
        Map.entry("basics", CommScenarios::basics), Map.entry("nbc", CommScenarios::nonblockingCollectives),
        Map.entry("sendrecv", CommScenarios::sendRecv), Map.entry("signals", CommScenarios::signals),
        Map.entry("exit", CommScenarios::exitAbnormally), Map.entry("abort", CommScenarios::abort),
        Map.entry("putget", RmaScenarios::putGet), Map.entry("fetchop", RmaScenarios::fetchAndOp),
        Map.entry("cas", RmaScenarios::compareAndSwap), Map.entry("lock", RmaScenarios::exclusiveLock),
        Map.entry("fence", RmaScenarios::fence), Map.entry("pscw", RmaScenarios::pscw),
        Map.entry("rput", RmaScenarios::requests), Map.entry("shared", RmaScenarios::shared),
        Map.entry("dynamic", RmaScenarios::dynamic), Map.entry("errors", ErrorScenarios::errors));

    private RankMain() {
    }

    public static void main(final String[] args) {
        final Mpi mpi = Mpi.init();
        final MpiComm world = mpi.world();
        int failed = 0;
        for (final String scenario : args) {
            final BiConsumer<Mpi, Arena> body = SCENARIOS.get(scenario);
            if (body == null) {
                throw new IllegalArgumentException("unknown scenario " + scenario + "; known: " + SCENARIOS.keySet());
            }
            try (Arena arena = Arena.ofConfined()) {
                body.accept(mpi, arena);
            } catch (final RuntimeException | AssertionError e) {
                failed++;
                print(world.rank(), scenario, "FAILED " + e.toString().replace('\n', ' '));
            }
        }
        print(world.rank(), "end", "");
        world.barrier();
        mpi.finalizeMpi();
        System.exit(failed);
    }

    /** Prints one result line of a rank. */
    static void print(final int rank, final String scenario, final String text) {
        System.out.println("R" + rank + " " + scenario + (text.isEmpty() ? "" : " " + text));
        System.out.flush();
    }

    /** @return this process's host name (its UTS namespace's). */
    static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails the scenario unless {@code condition} holds. */
    static void require(final boolean condition, final String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
