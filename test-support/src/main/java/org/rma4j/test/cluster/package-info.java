/**
 * Real MPI jobs of JVMs across two "nodes" on one machine: {@link org.rma4j.test.cluster.MpiCluster} makes two
 * network namespaces joined by a veth pair, runs {@code mpirun} (Open MPI or MPICH) with an rsh agent that
 * starts each node's processes in its namespace under its own host name, and removes every namespace, process
 * and file it made, even when a job fails. Needs root, iproute2, util-linux and the MPI implementations.
 */
package org.rma4j.test.cluster;
