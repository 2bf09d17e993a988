package org.rma4j.litmus.syntax;

/**
 * The operation of a get-accumulate ({@code rga}): MPI's predefined ops on 64-bit integers. The new
 * target value is {@code apply(old, operand)} (MPI: target = target op origin; REPLACE stores the
 * operand, NO_OP keeps the target).
 */
public enum AccOp {
    SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, REPLACE, NO_OP;

    /** @return the new target value. */
    public long apply(final long old, final long operand) {
        return switch (this) {
            case SUM -> old + operand;
            case PROD -> old * operand;
            case MIN -> Math.min(old, operand);
            case MAX -> Math.max(old, operand);
            case LAND -> (old != 0 && operand != 0) ? 1 : 0;
            case LOR -> (old != 0 || operand != 0) ? 1 : 0;
            case LXOR -> ((old != 0) != (operand != 0)) ? 1 : 0;
            case BAND -> old & operand;
            case BOR -> old | operand;
            case BXOR -> old ^ operand;
            case REPLACE -> operand;
            case NO_OP -> old;
        };
    }

    /** @return the name used in litmus files, e.g. {@code sum}, {@code no_op}. */
    public String litmusName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** @return the op named {@code name} in a litmus file, or null. */
    public static AccOp byName(final String name) {
        for (final AccOp op : values()) {
            if (op.litmusName().equals(name)) {
                return op;
            }
        }
        return null;
    }
}
