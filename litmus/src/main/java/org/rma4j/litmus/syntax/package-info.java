/**
 * The litmus file format: tokens ({@link org.rma4j.litmus.syntax.Lexer}), the AST
 * ({@link org.rma4j.litmus.syntax.Program}, {@link org.rma4j.litmus.syntax.Stmt},
 * {@link org.rma4j.litmus.syntax.Condition}), the parser with file:line:column errors, the static
 * checks of MPI well-formedness ({@link org.rma4j.litmus.syntax.Checker}) and the printer. The
 * grammar is in the module README.
 */
package org.rma4j.litmus.syntax;
