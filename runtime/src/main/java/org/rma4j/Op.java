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
 *   <li>REPLACE, NO_OP: every type.</li>
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
    NO_OP;

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
            default -> true;
        };
    }
}
