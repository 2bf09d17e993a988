package org.rma4j.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CollectiveBenchmark}'s setup, call and teardown run directly, for every layer and call (no JMH,
 * no timing): the allreduces sum both ranks' ones, and the job ends.
 */
@Timeout(120)
class CollectiveBenchmarkTest {
    @Test
    void shouldRunEveryCallOfBothLayersAndEndTheJob() throws Exception {
        for (final String layer : new String[] {"communicator", "messaging"}) {
            for (final String call : new String[] {"barrier", "allreduce8", "allreduce64k"}) {
                final CollectiveBenchmark benchmark = new CollectiveBenchmark();
                benchmark.layer = layer;
                benchmark.call = call;
                benchmark.setup();
                for (int i = 0; i < 5; i++) {
                    benchmark.run();
                }
                benchmark.teardown();
                if (!call.equals("barrier")) {
                    final long[] sums = benchmark.result().toArray(ValueLayout.JAVA_LONG);
                    for (final long sum : sums) {
                        assertEquals(2 * 0x0101010101010101L, sum, layer + " " + call);
                    }
                }
            }
        }
    }
}
