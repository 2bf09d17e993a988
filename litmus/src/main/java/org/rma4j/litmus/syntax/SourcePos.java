package org.rma4j.litmus.syntax;

/**
 * A position in a litmus file: file name, 1-based line and 1-based column.
 */
public record SourcePos(String file, int line, int column) {
    /** Position used for programs built in code (generator, tests) rather than parsed. */
    public static final SourcePos NONE = new SourcePos("<generated>", 0, 0);

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
