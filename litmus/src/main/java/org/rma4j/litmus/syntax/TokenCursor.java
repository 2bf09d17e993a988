package org.rma4j.litmus.syntax;

import java.util.List;

/**
 * A position in a token list, with the small helpers every parser of this package uses.
 */
final class TokenCursor {
    /** Largest magnitude of a number in a litmus file (the model reserves Long.MIN_VALUE). */
    static final long MAX_VALUE = 1L << 62;

    private final List<Token> tokens;
    private int index;

    TokenCursor(final List<Token> tokens) {
        this.tokens = tokens;
    }

    Token peek() {
        return tokens.get(index);
    }

    Token peekAt(final int ahead) {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    Token next() {
        final Token t = tokens.get(index);
        if (t.kind() != Token.Kind.EOF) {
            index++;
        }
        return t;
    }

    boolean accept(final Token.Kind kind) {
        if (peek().kind() == kind) {
            next();
            return true;
        }
        return false;
    }

    Token expect(final Token.Kind kind, final String what) {
        final Token t = peek();
        if (t.kind() != kind) {
            throw new LitmusException(t.pos(), "expected " + what + ", found " + t.describe());
        }
        return next();
    }

    static long parseValue(final Token digits, final boolean negative) {
        final long value;
        try {
            value = Long.parseLong(digits.text());
        } catch (final NumberFormatException e) {
            throw new LitmusException(digits.pos(), "number " + digits.text() + " is too large");
        }
        if (value > MAX_VALUE) {
            throw new LitmusException(digits.pos(), "number " + digits.text() + " is too large (at most 2^62)");
        }
        return negative ? -value : value;
    }
}
