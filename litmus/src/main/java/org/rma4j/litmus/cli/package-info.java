/**
 * The {@code litmus} command line (picocli): {@code model}, {@code run}, {@code gen}, {@code suite},
 * {@code graph}.
 */
package org.rma4j.litmus.cli;
