package org.rma4j;

/**
 * Predefined operations of the accumulate calls (MPI-3.1 section 11.3.4: the predefined operations
 * of MPI_REDUCE, plus MPI_REPLACE and MPI_NO_OP).
 *
 * <p>Which types each op accepts follows MPI's rules for the C types these stand for (rma4j's
 * {@code BYTE} is a signed 8-bit integer, {@code CHAR} an unsigned 16-bit integer):
 * <ul>
 *   <li>SUM, PROD, MIN, MAX: every type;</li>
 *   <li>LAND, LOR, LXOR (logical: non-zero is true, the result is 0 or 1) and BAND, BOR, BXOR
 *   (bitwise): integer types only;</li>
 *   <li>REPLACE, NO_OP: every type;</li>
 *   <li>MINLOC, MAXLOC: the pair types ({@link Datatype#LONG_INT}, {@link Datatype#INT2},
 *   {@link Datatype#DOUBLE_INT}, {@link Datatype#FLOAT_INT}, {@link Datatype#SHORT_INT}) and types built
 *   from one of them, which take no other op but REPLACE and NO_OP (section 5.9.4).</li>
 * </ul>
 * Any other pairing raises {@link ErrorClass#OP} naming the op and the type.
 */
public enum Op {
    /** MPI_SUM: sum. */
    SUM,
    /** MPI_PROD: product. */
    PROD,
    /** MPI_MIN: minimum. */
    MIN,
    /** MPI_MAX: maximum. */
    MAX,
    /** MPI_LAND: logical and (non-zero is true; the result is 0 or 1). */
    LAND,
    /** MPI_LOR: logical or. */
    LOR,
    /** MPI_LXOR: logical exclusive or. */
    LXOR,
    /** MPI_BAND: bitwise and. */
    BAND,
    /** MPI_BOR: bitwise or. */
    BOR,
    /** MPI_BXOR: bitwise exclusive or. */
    BXOR,
    /** MPI_REPLACE: the origin's value replaces the target's (accumulate as an atomic put). */
    REPLACE,
    /** MPI_NO_OP: the target is left as it is (get_accumulate / fetch_and_op as an atomic read). */
    NO_OP,
    /**
     * MPI_MINLOC on value-index pairs (MPI-3.1 section 5.9.4): the smaller value with its index; of equal
     * values, the smaller index. Values are compared with Java's {@code <} and {@code ==}, so a NaN on
     * either side leaves the target's value and takes the smaller index.
     */
    MINLOC,
    /** MPI_MAXLOC on value-index pairs: the larger value with its index; of equal values, the smaller index. */
    MAXLOC;

    /**
     * @return the standard's name, e.g. {@code MPI_SUM}.
     */
    public String mpiName() {
        return "MPI_" + name();
    }

    /**
     * @return whether this op may be applied to elements of {@code type}.
     */
    public boolean accepts(final Datatype.Basic type) {
        return switch (this) {
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> type.isInteger();
            case MINLOC, MAXLOC -> false;
            default -> true;
        };
    }

    /**
     * @return whether this op may combine the elements of {@code type}: pair-typed elements with MINLOC,
     *         MAXLOC, REPLACE and NO_OP, elements of one basic type as {@link #accepts(Datatype.Basic)} says,
     *         and no op the elements of a type that mixes basic types otherwise.
     */
    public boolean accepts(final Datatype type) {
        if (type.pair().isPresent()) {
            return this == MINLOC || this == MAXLOC || this == REPLACE || this == NO_OP;
        }
        return type.unitName() != null && accepts(type.basic());
    }
}
