package org.rma4j.litmus.syntax;

import java.util.Set;
import java.util.function.Function;

/**
 * The final condition of a litmus test: {@code exists (p)}, {@code ~exists (p)} or {@code forall (p)}
 * over registers and final memory.
 */
public record Condition(Quantifier quantifier, Prop prop) {
    /** The quantifiers, with their litmus spelling. */
    public enum Quantifier {
        EXISTS("exists"), NOT_EXISTS("~exists"), FORALL("forall");

        private final String text;

        Quantifier(final String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** A proposition over a final state. */
    public sealed interface Prop {
        /**
         * Evaluates the proposition in three-valued logic: a location whose value is undefined
         * ({@code top}) may equal any number.
         *
         * @param value value of each location.
         * @return TRUE, FALSE or null (unknown).
         */
        default Boolean evaluate(final Function<Loc, Long> value, final long top) {
            return switch (this) {
                case Const c -> c.value();
                case Eq e -> {
                    final long v = value.apply(e.loc());
                    yield v == top ? null : v == e.value();
                }
                case Not n -> {
                    final Boolean b = n.prop().evaluate(value, top);
                    yield b == null ? null : !b;
                }
                case And a -> {
                    final Boolean l = a.left().evaluate(value, top);
                    final Boolean r = a.right().evaluate(value, top);
                    yield Boolean.FALSE.equals(l) || Boolean.FALSE.equals(r)
                        ? Boolean.FALSE
                        : l == null || r == null ? null : Boolean.TRUE;
                }
                case Or o -> {
                    final Boolean l = o.left().evaluate(value, top);
                    final Boolean r = o.right().evaluate(value, top);
                    yield Boolean.TRUE.equals(l) || Boolean.TRUE.equals(r)
                        ? Boolean.TRUE
                        : l == null || r == null ? null : Boolean.FALSE;
                }
            };
        }

        /** Adds every location the proposition mentions to {@code into}. */
        default void locations(final Set<Loc> into) {
            switch (this) {
                case Const c -> {
                }
                case Eq e -> into.add(e.loc());
                case Not n -> n.prop().locations(into);
                case And a -> {
                    a.left().locations(into);
                    a.right().locations(into);
                }
                case Or o -> {
                    o.left().locations(into);
                    o.right().locations(into);
                }
            }
        }
    }

    /** {@code true} or {@code false}. */
    public record Const(boolean value) implements Prop {
        @Override
        public String toString() {
            return Boolean.toString(value);
        }
    }

    /** {@code loc = value}. */
    public record Eq(Loc loc, long value) implements Prop {
        @Override
        public String toString() {
            return loc + "=" + value;
        }
    }

    /** {@code ~p}. */
    public record Not(Prop prop) implements Prop {
        @Override
        public String toString() {
            return "~(" + prop + ")";
        }
    }

    /** {@code p /\ q}. */
    public record And(Prop left, Prop right) implements Prop {
        @Override
        public String toString() {
            return wrap(left, this) + " /\\ " + wrap(right, this);
        }
    }

    /** {@code p \/ q}. */
    public record Or(Prop left, Prop right) implements Prop {
        @Override
        public String toString() {
            return wrap(left, this) + " \\/ " + wrap(right, this);
        }
    }

    private static String wrap(final Prop inner, final Prop outer) {
        final boolean same = inner.getClass() == outer.getClass();
        return same || inner instanceof Eq || inner instanceof Const || inner instanceof Not
            ? inner.toString()
            : "(" + inner + ")";
    }

    @Override
    public String toString() {
        return quantifier.text() + " (" + prop + ")";
    }
}
