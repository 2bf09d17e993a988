package org.rma4j.litmus.syntax;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a litmus file into tokens. Comments are {@code (* ... *)} (herd7 style, may nest) and
 * {@code //} to the end of the line. Identifiers are letters, digits, {@code _} and {@code .},
 * starting with a letter or {@code _}; numbers are decimal digits.
 */
public final class Lexer {
    private final String file;
    private final String text;
    private int index;
    private int line = 1;
    private int column = 1;

    public Lexer(final String file, final String text) {
        this.file = file;
        this.text = text;
    }

    /**
     * @return every token of the text, ending with {@link Token.Kind#EOF}.
     * @throws LitmusException at an unknown character or an unterminated comment or string.
     */
    public List<Token> tokens() {
        final List<Token> tokens = new ArrayList<>();
        while (true) {
            skipBlanksAndComments();
            final SourcePos pos = pos();
            if (index >= text.length()) {
                tokens.add(new Token(Token.Kind.EOF, "", pos));
                return tokens;
            }
            tokens.add(token(text.charAt(index), pos));
        }
    }

    /** @return the token that starts with {@code c} at {@code pos}, consumed. */
    private Token token(final char c, final SourcePos pos) {
        if (Character.isLetter(c) || c == '_') {
            return new Token(Token.Kind.IDENT, consumeWhile(Lexer::isIdentPart), pos);
        }
        if (Character.isDigit(c)) {
            return new Token(Token.Kind.INT, consumeWhile(Character::isDigit), pos);
        }
        if (c == '"') {
            return string(pos);
        }
        if (c == '/' && peek(1) == '\\') {
            advance();
            advance();
            return new Token(Token.Kind.AND, "/\\", pos);
        }
        if (c == '\\' && peek(1) == '/') {
            advance();
            advance();
            return new Token(Token.Kind.OR, "\\/", pos);
        }
        final Token.Kind kind = switch (c) {
            case '{' -> Token.Kind.LBRACE;
            case '}' -> Token.Kind.RBRACE;
            case '(' -> Token.Kind.LPAREN;
            case ')' -> Token.Kind.RPAREN;
            case '[' -> Token.Kind.LBRACKET;
            case ']' -> Token.Kind.RBRACKET;
            case ';' -> Token.Kind.SEMI;
            case ',' -> Token.Kind.COMMA;
            case '|' -> Token.Kind.PIPE;
            case ':' -> Token.Kind.COLON;
            case '=' -> Token.Kind.EQ;
            case '@', '^' -> Token.Kind.AT;
            case '+' -> Token.Kind.PLUS;
            case '-' -> Token.Kind.MINUS;
            case '~', '!' -> Token.Kind.TILDE;
            default -> throw new LitmusException(pos, "unexpected character '" + c + "'");
        };
        advance();
        return new Token(kind, String.valueOf(c), pos);
    }

    /** @return the characters from here on that satisfy {@code part}, consumed. */
    private String consumeWhile(final java.util.function.IntPredicate part) {
        final int start = index;
        while (index < text.length() && part.test(text.charAt(index))) {
            advance();
        }
        return text.substring(start, index);
    }

    /** A string on one line, the quotes dropped. */
    private Token string(final SourcePos pos) {
        advance();
        final int start = index;
        while (index < text.length() && text.charAt(index) != '"' && text.charAt(index) != '\n') {
            advance();
        }
        if (index >= text.length() || text.charAt(index) != '"') {
            throw new LitmusException(pos, "unterminated string");
        }
        final Token token = new Token(Token.Kind.STRING, text.substring(start, index), pos);
        advance();
        return token;
    }

    private static boolean isIdentPart(final int c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '.';
    }

    private void skipBlanksAndComments() {
        while (index < text.length()) {
            final char c = text.charAt(index);
            if (Character.isWhitespace(c)) {
                advance();
            } else if (c == '/' && peek(1) == '/') {
                while (index < text.length() && text.charAt(index) != '\n') {
                    advance();
                }
            } else if (c == '(' && peek(1) == '*') {
                skipBlockComment();
            } else {
                return;
            }
        }
    }

    private void skipBlockComment() {
        final SourcePos start = pos();
        int depth = 0;
        while (index < text.length()) {
            if (text.charAt(index) == '(' && peek(1) == '*') {
                depth++;
                advance();
                advance();
            } else if (text.charAt(index) == '*' && peek(1) == ')') {
                depth--;
                advance();
                advance();
                if (depth == 0) {
                    return;
                }
            } else {
                advance();
            }
        }
        throw new LitmusException(start, "unterminated comment");
    }

    private char peek(final int ahead) {
        final int i = index + ahead;
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private void advance() {
        if (text.charAt(index) == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
        index++;
    }

    private SourcePos pos() {
        return new SourcePos(file, line, column);
    }
}
