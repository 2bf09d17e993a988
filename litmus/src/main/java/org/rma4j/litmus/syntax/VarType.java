package org.rma4j.litmus.syntax;

/**
 * The element type of a litmus variable ({@code X@0:short = 1}, {@code X@0:long[128] = 0}). Values
 * of the model are longs; a write to a variable keeps what its type can hold ({@link #narrow}), so the
 * model wraps a short sum exactly as the machine does. A double holds the integers its operations
 * produce (litmus files write integers; sums, products, minima and maxima of small integers are
 * exact in double arithmetic), and a register that reads a double gets its value as a long.
 */
public enum VarType {
    LONG(8), INT(4), SHORT(2), DOUBLE(8);

    private final int bytes;

    VarType(final int bytes) {
        this.bytes = bytes;
    }

    /** @return bytes of one element. */
    public int bytes() {
        return bytes;
    }

    /** @return the name used in litmus files. */
    public String litmusName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** @return the value an element of this type holds after {@code value} is written to it. */
    public long narrow(final long value) {
        return switch (this) {
            case LONG -> value;
            case INT -> (int)value;
            case SHORT -> (short)value;
            case DOUBLE -> (long)(double)value;
        };
    }

    /** @return whether {@code op} is defined on this type (MPI-3.1 section 11.3.4: no bitwise or logical ops on floats). */
    public boolean allows(final AccOp op) {
        return this != DOUBLE || switch (op) {
            case SUM, PROD, MIN, MAX, REPLACE, NO_OP -> true;
            default -> false;
        };
    }

    /** @return the type named {@code name} in a litmus file, or null. */
    public static VarType byName(final String name) {
        for (final VarType t : values()) {
            if (t.litmusName().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
