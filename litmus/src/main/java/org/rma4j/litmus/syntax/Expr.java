package org.rma4j.litmus.syntax;

import java.util.function.ToLongFunction;

/**
 * The value of a local write: numbers, registers of the writing process, {@code +} and {@code -}.
 */
public sealed interface Expr {
    /** A number. */
    record Const(long value) implements Expr {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    /** A register of the process. */
    record Reg(String name) implements Expr {
        @Override
        public String toString() {
            return name;
        }
    }

    /** {@code left + right} or {@code left - right}. */
    record Binary(Expr left, boolean plus, Expr right) implements Expr {
        @Override
        public String toString() {
            return left + (plus ? " + " : " - ") + right;
        }
    }

    /**
     * Evaluates the expression.
     *
     * @param registers value of each register; {@code Value.TOP} propagates.
     * @param top       the undefined value: any operation with it yields it.
     */
    default long evaluate(final ToLongFunction<String> registers, final long top) {
        return switch (this) {
            case Const c -> c.value();
            case Reg r -> registers.applyAsLong(r.name());
            case Binary b -> {
                final long l = b.left().evaluate(registers, top);
                final long r = b.right().evaluate(registers, top);
                yield l == top || r == top ? top : b.plus() ? l + r : l - r;
            }
        };
    }

    /** Calls {@code visitor} with every register name in the expression. */
    default void registers(final java.util.function.Consumer<String> visitor) {
        switch (this) {
            case Const c -> {
            }
            case Reg r -> visitor.accept(r.name());
            case Binary b -> {
                b.left().registers(visitor);
                b.right().registers(visitor);
            }
        }
    }
}
