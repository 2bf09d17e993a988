package org.rma4j.litmus.model;

/**
 * The axiomatic rules of the model. The first group is coreRMA's (Dan, Lam, Hoefler, Vechev,
 * OOPSLA 2016, Figure 4, section 5.3); the second adds the MPI-3 synchronization of the statements
 * this format has beyond coreRMA (Hoefler et al., "Remote Memory Access Programming in MPI-3",
 * TOPC 2014, section 3; equation numbers are that paper's). Every hb edge the model adds carries
 * one of these names; the README explains each decision.
 */
public enum Rule {
    // ---- coreRMA, Figure 4
    /** R1: an atomic read that reads from w1 is hb-before every atomic write w2 with w1 hb w2. */
    R1("R1", "coreRMA Fig. 4 (R1)"),
    /** R2: an atomic read is hb-after the atomic write it reads from. */
    R2("R2", "coreRMA Fig. 4 (R2)"),
    /** IR: Remote actions of one process to one other process are hb-ordered in program order. */
    IR("IR", "coreRMA Fig. 4 (IR), in-order routing"),
    /** F1: a flush is hb-before later local actions. */
    F1("F1", "coreRMA Fig. 4 (F1)"),
    /** F2: every action of a remote statement to dst is hb-before a later flush(dst). */
    F2("F2", "coreRMA Fig. 4 (F2)"),
    /** F3: a flush(dst) is hb-before every action of a later remote statement to dst. */
    F3("F3", "coreRMA Fig. 4 (F3)"),
    /** PG: a put's or get's external read is hb-before its external write. */
    PG("PG", "coreRMA Fig. 4 (PG)"),
    /** GA: an rga's read of the operand, its read-write of the target and its write of the result, in hb order. */
    GA("GA", "coreRMA Fig. 4 (GA)"),
    /** CAS-F / CAS-T: a cas's two operand reads are hb-before its read-write, which is hb-before its result write. */
    CAS("CAS", "coreRMA Fig. 4 (CAS-F, CAS-T)"),
    /** LO: a local action is hb-before every action after it in program order. */
    LO("LO", "coreRMA Fig. 4 (LO)"),
    /** WS: atomic writes to one location are totally ordered by hb. */
    WS("WS", "coreRMA Fig. 4 (WS)"),
    /**
     * COH: a read does not read from a write w1 when another write w2 to the location has
     * w1 hb w2 hb read (no-C's "the value written by w" for a conflict-free read means the hb-last
     * write; MPI-3 paper eq. (23)-(25)). Decision of this implementation, see README.
     */
    COH("COH", "no-C + MPI-3 eq. (23)-(25)"),
    /** INIT: initial values are writes hb-before every program action (coreRMA section 5). */
    INIT("INIT", "coreRMA section 5"),
    /** FIN: the final state is read after every action (this format's final memory). */
    FIN("FIN", "final state"),

    // ---- MPI-3 synchronization
    /** SY: synchronization calls of one process are hb-ordered in program order (hb includes po on s*). */
    SY("SY", "MPI-3 sec. 3 (hb = (po U so)+)"),
    /** FE: a fence completes everything before it at every process and precedes everything after it. */
    FE("FE", "MPI-3 eq. (9), sec. 3.2.4; MPI C1/C2"),
    /** BAR: a barrier precedes every action after it at every process (process synchronization only). */
    BAR("BAR", "MPI-3 sec. 3 (ses, so)"),
    /** LK: a lock precedes later local actions and the epoch's remote actions to its target. */
    LK("LK", "MPI-3 eq. (10)"),
    /** UL: remote actions to the target are hb-before unlock; unlock precedes later local actions. */
    UL("UL", "MPI-3 eq. (12)-(15); MPI C4"),
    /** LX: lock epochs on one target, one of them exclusive, do not overlap: one unlock precedes the other lock. */
    LX("LX", "MPI-3 sec. 3.2.5 (sul so sle / sls)"),
    /** FL: flush_local completes the origin-side actions of remote statements to its target. */
    FL("FL", "MPI-3 eq. (16), (17)"),
    /** WSY: local actions (direct ones included) before a win_sync are hb-before it, and it is hb-before later ones. */
    WSY("WSY", "MPI-3 eq. (18)"),
    /** NA: a notified access's target action is hb-before the matching wait, which precedes later actions. */
    NA("NA", "Notified Access sec. III"),
    /**
     * AO: accumulates of one process to one location keep program order, for each pair of kinds the
     * window's accumulate_ordering names (rar, raw, war, waw; default all four), self and remote.
     */
    AO("AO", "MPI-3 eq. (26); MPI-3.1 sec. 11.7.2 (accumulate_ordering)"),
    /**
     * PSCW: post precedes the matching origin's accesses to the target in its start epoch; those
     * complete locally at complete and at the target at the matching win_wait; complete precedes that
     * win_wait; win_wait precedes the target's later actions, complete the origin's later local ones.
     */
    PSCW("PSCW", "MPI-3.1 sec. 11.5.2; MPI-3 sec. 2.3"),

    // ---- rma4j guarantees (beyond the standard; dropped by --mpi)
    /**
     * DS: direct loads and stores through shared_query keep program order with the process's other
     * local actions (rma4j compiles them to volatile accesses). MPI orders them only through win_sync
     * (MPI-3 sec. 3.6: their order is the architecture's).
     */
    DS("DS", "rma4j (volatile load / store); MPI-3 sec. 3.6 leaves it to the architecture"),
    /**
     * LB: a barrier orders the local loads and stores around it (rma4j's barrier is a full fence, and the
     * MPI-3 paper's eq. (20) reads it so). MPI-3.1 Examples 11.7 and 11.9 say a barrier alone does not:
     * the store before it or the load after it may move across it; without LB the barrier orders only
     * synchronization and RMA calls.
     */
    LB("LB", "rma4j (full fence); MPI-3 eq. (20); not MPI-3.1 Examples 11.7, 11.9");

    private final String label;
    private final String source;

    Rule(final String label, final String source) {
        this.label = label;
        this.source = source;
    }

    /** @return the rule's name as the papers write it. */
    public String label() {
        return label;
    }

    /** @return where the rule comes from. */
    public String source() {
        return source;
    }

    /** @return the rule called {@code label} (case-insensitive; CAS-F and CAS-T name CAS), or null. */
    public static Rule byLabel(final String label) {
        final String l = label.toUpperCase(java.util.Locale.ROOT);
        if (l.equals("CAS-F") || l.equals("CAS-T")) {
            return CAS;
        }
        for (final Rule r : values()) {
            if (r.label.equals(l)) {
                return r;
            }
        }
        return null;
    }
}
