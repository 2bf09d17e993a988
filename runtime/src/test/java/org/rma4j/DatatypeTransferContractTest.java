package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * Typed put and get between ranks (MPI-3.1 section 11.3 with derived datatypes), run by a subclass
 * per job mode. Each test runs a program of {@link DatatypeScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class DatatypeTransferContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldMoveVectorAndIndexedLayoutsByteExactAndRejectMismatches() throws Exception {
        run(3, "typedTransfers");
    }

    @Test
    void shouldExchangeColumnHalosWithAVectorTypeOnBothSides() throws Exception {
        run(3, "haloExchange");
    }

    @Test
    void shouldExchangeThreeDimensionalHalosWithSubarraysAndGetARecordFieldWithAnHvector() throws Exception {
        run(3, "subarrayHaloAndRecordField");
    }

    @Test
    void shouldMoveStructsBetweenLayoutsOfOneSignatureAndRefuseToAccumulateThem() throws Exception {
        run(3, "structTransfers");
    }

    @Test
    void shouldTransferTypedDataToItselfAsSingleRank() throws Exception {
        run(1, "typedTransfers");
    }
}
