package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.test.ShmTestDirectory;

/**
 * The window contract, run by a subclass per job mode: thread mode and real processes. Each test
 * runs a program of {@link WindowScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class WindowContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldExposeAttributesAndContiguousSegmentsOfAllocateShared() throws Exception {
        run(4, "attributes");
    }

    @Test
    void shouldPlaceNoncontiguousSegmentsOnOwnPages() throws Exception {
        run(3, "noncontiguous");
    }

    @Test
    void shouldSeeDirectStoresThroughSharedQueryAfterBarrier() throws Exception {
        run(3, "sharedLoadStore");
    }

    @Test
    void shouldMakePutsVisibleAfterFence() throws Exception {
        run(4, "fencePutGet");
    }

    @Test
    void shouldPlaceEveryOverloadAtDispTimesDispUnit() throws Exception {
        run(2, "putGetOverloads");
    }

    @Test
    void shouldKeepPlainCounterExactUnderExclusiveLock() throws Exception {
        run(4, "exclusiveLockCounter");
    }

    @Test
    void shouldShowDataBeforeFlagWithLockAllPutFlush() throws Exception {
        run(4, "lockAllFlushFlag");
    }

    @Test
    void shouldAllowSharedLocksFlushesAndSync() throws Exception {
        run(3, "sharedLocksAndFlushes");
    }

    @Test
    void shouldFinishFenceAndLockRoundsWithMoreRanksThanCores() throws Exception {
        run(6, "oversubscribedRounds");
    }

    @Test
    void shouldSynchronizeWithPostStartCompleteWait() throws Exception {
        run(4, "pscw");
    }

    @Test
    void shouldExposeAllocMemThroughCreateAndDynamicWindows() throws Exception {
        run(3, "createAndDynamic");
    }

    @Test
    void shouldRaiseErrorClassesAndLeaveWindowIntact() throws Exception {
        run(3, "errorClasses");
    }

    @Test
    void shouldNotGrantAnExclusiveLockWhileAnotherRankHoldsLockAll() throws Exception {
        run(3, "exclusiveAgainstLockAll");
    }

    @Test
    void shouldTakeTheFreeTargetsAtOnceAndWaitForAHeldOneInLockAll() throws Exception {
        run(2, "lockAllPastHeldTarget");
        run(3, "lockAllPastHeldTarget");
    }

    @Test
    void shouldOrderDirectStoresWithSyncAlone() throws Exception {
        run(3, "syncOnly");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"attributes", "noncontiguous", "sharedLoadStore", "fencePutGet", "putGetOverloads",
        "exclusiveLockCounter", "lockAllFlushFlag", "sharedLocksAndFlushes", "exclusiveAgainstLockAll",
        "lockAllPastHeldTarget", "syncOnly", "oversubscribedRounds", "pscw", "createAndDynamic", "errorClasses"})
    void shouldRunEveryScenarioAsSingleRank(final String scenario) throws Exception {
        run(1, scenario);
    }

    @Test
    void shouldListEveryScenarioInTheSingleRankTest() throws Exception {
        final Set<String> listed = Set
            .of(WindowContractTest.class.getDeclaredMethod("shouldRunEveryScenarioAsSingleRank", String.class)
                .getAnnotation(ValueSource.class).strings());
        final Set<String> scenarios = Arrays.stream(WindowScenarios.class.getDeclaredMethods())
            .filter(m -> Modifier.isStatic(m.getModifiers()) && !Modifier.isPrivate(m.getModifiers()))
            .filter(m -> Arrays.equals(m.getParameterTypes(), new Class<?>[] {RmaJob.class})).map(Method::getName)
            .collect(Collectors.toSet());
        assertEquals(scenarios, listed);
    }
}
