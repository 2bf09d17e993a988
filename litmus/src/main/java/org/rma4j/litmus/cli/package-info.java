/**
 * The {@code litmus} command line (picocli): {@code model}, {@code run}, {@code gen}, {@code suite}.
 */
package org.rma4j.litmus.cli;
