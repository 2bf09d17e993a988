/**
 * Test fixtures shared by the tests of every rma4j module (the role aeron-test-support plays for aeron).
 *
 * <ul>
 *   <li>{@link org.rma4j.test.ShmTestDirectory}: a private directory under /dev/shm for one test, with the
 *   mappings, threads and child processes the test made in it, all removed when the test ends, whatever
 *   its outcome; as a JUnit extension it also checks that the test left nothing in it.</li>
 *   <li>{@link org.rma4j.test.TestProcesses}: the command line of a child JVM running a class of the test
 *   class path, and the state of processes ({@code /proc}).</li>
 *   <li>{@link org.rma4j.test.Tmpfs}: a private tmpfs of a given size, to run out of shared memory.</li>
 *   <li>{@link org.rma4j.test.cluster.MpiCluster}: two network namespaces that run real MPI jobs of JVMs as
 *   two nodes (mpi-transport's and the runtime's MPI-mode tests, the bench's measurements across nodes).</li>
 * </ul>
 *
 * <p>Nothing here depends on rma4j's own modules: fixtures that need the runtime's types stay in the
 * runtime's tests, and shm-transport's tests can use these (Maven allows no dependency cycle, even
 * through the test scope).
 */
package org.rma4j.test;
