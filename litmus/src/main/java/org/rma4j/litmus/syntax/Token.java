package org.rma4j.litmus.syntax;

/**
 * A token of the litmus format.
 *
 * @param kind  what it is.
 * @param text  its text (identifier name, digits of a number, contents of a string).
 * @param pos   where it starts.
 */
public record Token(Kind kind, String text, SourcePos pos) {
    /** Token kinds. */
    public enum Kind {
        IDENT("identifier"), INT("number"), STRING("string"), LBRACE("'{'"), RBRACE("'}'"), LPAREN("'('"), RPAREN(
            "')'"), LBRACKET("'['"), RBRACKET("']'"), SEMI("';'"), COMMA("','"), PIPE("'|'"), COLON("':'"), EQ(
                "'='"), AT(
                    "'@'"), PLUS("'+'"), MINUS("'-'"), TILDE("'~'"), AND("'/\\'"), OR("'\\/'"), EOF("end of file");

        private final String description;

        Kind(final String description) {
            this.description = description;
        }

        /** @return how error messages name this kind. */
        public String description() {
            return description;
        }
    }

    /** @return the token as error messages show it. */
    public String describe() {
        return switch (kind) {
            case IDENT -> "'" + text + "'";
            case INT -> "number " + text;
            case STRING -> "string \"" + text + "\"";
            default -> kind.description();
        };
    }

    /** @return whether this is the identifier {@code word}. */
    public boolean is(final String word) {
        return kind == Kind.IDENT && text.equals(word);
    }
}
