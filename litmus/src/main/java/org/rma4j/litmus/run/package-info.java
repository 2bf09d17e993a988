/**
 * Running litmus programs on rma4j: the interpreter of one process over a window, the per-rank
 * iteration loop with random delays, thread and process runners, the histogram of final states and
 * the verdict against the model's allowed states, and the batch runner that runs many programs in one job.
 */
package org.rma4j.litmus.run;
