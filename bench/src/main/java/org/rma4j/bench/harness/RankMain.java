package org.rma4j.bench.harness;

import java.nio.file.Path;
import java.util.Arrays;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.launch.JobEnvironment;

/**
 * Main class of each rank JVM of a harness job (started by {@link JavaRunner} through the launcher).
 *
 * <p>usage: {@code RankMain SCENARIO OUT_FILE SIZES_CSV ITERATIONS WARMUP BW_SAMPLES}, where SCENARIO
 * is one of {@link Scenario}'s ids. Rank 0 appends its samples to OUT_FILE ({@link SampleFile}).
 */
public final class RankMain {
    private RankMain() {
    }

    /** The Java scenarios, one job each. */
    enum Scenario {
        FLOOR("floor"), NOTIFY_LANES("notify-lanes"), NOTIFIED_PUT("notified-put"), COUNTER_PUT(
            "counter-put"), PUT_FLUSH_FLAG("put-flush-flag"), SEND_RECV("send-recv"), LOAD_STORE("load-store"), PSCW(
                "pscw"), FENCE("fence"), OPS("ops"), BANDWIDTH("bandwidth"), MEMCPY("memcpy"), COSTS("costs");

        final String id;

        Scenario(final String id) {
            this.id = id;
        }

        static Scenario of(final String id) {
            return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown scenario " + id + "; known: "
                    + Arrays.toString(Arrays.stream(values()).map(s -> s.id).toArray())));
        }
    }

    public static void main(final String[] args) throws Throwable {
        if (args.length != 6) {
            System.err.println("usage: RankMain SCENARIO OUT_FILE SIZES_CSV ITERATIONS WARMUP BW_SAMPLES");
            System.exit(2);
        }
        final Scenario scenario = Scenario.of(args[0]);
        final long[] sizes = Arrays.stream(args[2].split(",")).mapToLong(Long::parseLong).toArray();
        try (RmaJob job = Rma.init()) {
            if (job.size() != 2) {
                throw new IllegalStateException("the harness runs jobs of 2 ranks, not " + job.size());
            }
            final RankContext context = new RankContext(job, sizes, Integer.parseInt(args[3]),
                Integer.parseInt(args[4]), Integer.parseInt(args[5]), Path.of(args[1]));
            if (scenario == Scenario.FLOOR) {
                FloorScenario.run(context, Path.of(System.getenv(JobEnvironment.JOB_DIR)));
                return;
            }
            if (scenario == Scenario.NOTIFY_LANES) {
                NotifyLanesScenario.run(context, Path.of(System.getenv(JobEnvironment.JOB_DIR)));
                return;
            }
            if (scenario == Scenario.MEMCPY) {
                RmaScenarios.memcpy(context);
                return;
            }
            if (scenario == Scenario.COSTS) {
                new CostScenario(context).run();
                return;
            }
            if (scenario == Scenario.SEND_RECV) {
                MessagingRow.run(context);
                return;
            }
            final RmaScenarios rows = new RmaScenarios(context);
            switch (scenario) {
                case NOTIFIED_PUT -> rows.notifiedPut();
                case COUNTER_PUT -> rows.counterPut();
                case PUT_FLUSH_FLAG -> rows.putFlushFlag();
                case LOAD_STORE -> rows.loadStore();
                case PSCW -> rows.pscw();
                case FENCE -> rows.fence();
                case OPS -> rows.singleOps();
                case BANDWIDTH -> rows.bandwidth();
                default -> throw new IllegalStateException(scenario.toString());
            }
            rows.close();
        }
    }
}
