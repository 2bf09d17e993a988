package org.rma4j.litmus.syntax;

/**
 * A litmus file that cannot be read: a syntax error, or a program that breaks a static rule (an
 * undeclared variable, an unmatched lock, a remote operation outside every access epoch, ...).
 * The message starts with {@code file:line:column: }.
 */
public final class LitmusException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient SourcePos pos;
    private final String detail;

    public LitmusException(final SourcePos pos, final String detail) {
        super(pos + ": " + detail);
        this.pos = pos;
        this.detail = detail;
    }

    /** @return where the problem is. */
    public SourcePos pos() {
        return pos;
    }

    /** @return the message without the position. */
    public String detail() {
        return detail;
    }
}
