package org.rma4j.litmus.syntax;

import java.util.Set;
import java.util.function.Supplier;

/**
 * Parses the final condition: {@code exists|~exists|forall [(] prop [)]} where
 * {@code prop := disj; disj := conj (\/ conj)*; conj := unary (/\ unary)*;
 * unary := ~ unary | ( prop ) | true | false | loc = [-]number}.
 */
final class ConditionParser {
    static final Set<String> RESERVED = Set.of("exists", "forall", "locations", "true", "false", "RMA");

    private final TokenCursor in;
    private final Supplier<Loc> location;

    ConditionParser(final TokenCursor in, final Supplier<Loc> location) {
        this.in = in;
        this.location = location;
    }

    Condition condition() {
        final Token first = in.next();
        final Condition.Quantifier quantifier;
        if (first.is("exists")) {
            quantifier = Condition.Quantifier.EXISTS;
        } else if (first.is("forall")) {
            quantifier = Condition.Quantifier.FORALL;
        } else if (first.kind() == Token.Kind.TILDE && in.peek().is("exists")) {
            in.next();
            quantifier = Condition.Quantifier.NOT_EXISTS;
        } else {
            throw new LitmusException(first.pos(),
                "expected a condition (exists, ~exists or forall), found " + first.describe());
        }
        return new Condition(quantifier, disjunction());
    }

    private Condition.Prop disjunction() {
        Condition.Prop left = conjunction();
        while (in.accept(Token.Kind.OR)) {
            left = new Condition.Or(left, conjunction());
        }
        return left;
    }

    private Condition.Prop conjunction() {
        Condition.Prop left = unary();
        while (in.accept(Token.Kind.AND)) {
            left = new Condition.And(left, unary());
        }
        return left;
    }

    private Condition.Prop unary() {
        if (in.accept(Token.Kind.TILDE)) {
            return new Condition.Not(unary());
        }
        if (in.accept(Token.Kind.LPAREN)) {
            final Condition.Prop inner = disjunction();
            in.expect(Token.Kind.RPAREN, "')' closing the parenthesis");
            return inner;
        }
        if (in.peek().is("true") || in.peek().is("false")) {
            return new Condition.Const(in.next().is("true"));
        }
        final Loc loc = location.get();
        in.expect(Token.Kind.EQ, "'=' after " + loc);
        final boolean negative = in.accept(Token.Kind.MINUS);
        final Token digits = in.expect(Token.Kind.INT, "a number after " + loc + "=");
        return new Condition.Eq(loc, TokenCursor.parseValue(digits, negative));
    }
}
