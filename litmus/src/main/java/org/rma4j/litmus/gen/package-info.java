/**
 * The test generator: every program up to a bound over a statement alphabet, deduplicated up to
 * renaming, kept if it exercises a rule of the model, written as litmus files.
 */
package org.rma4j.litmus.gen;
