package org.rma4j.litmus.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.litmus.syntax.Program;
import org.rma4j.litmus.syntax.Stmt;

/**
 * The ways notified accesses can match the waits of a program (Notified Access, section III:
 * notifications match requests by source and tag, in order for one source and tag, like MPI's
 * non-overtaking messages). A process whose waits name their source and tag has one matching: the
 * k-th notification of a (source, tag) stream goes to the k-th wait for it. A process that waits on any
 * source or any tag (the {@link org.rma4j.litmus.syntax.Checker} lets it use only that one pattern)
 * takes its notifications in any interleaving of its streams, each stream in order, and its waits
 * take them consecutively.
 */
final class NotifyMatching {
    /** Interleavings the model explores at most for one process. */
    static final int MAX_INTERLEAVINGS = 20_000;

    /** A notified access: the origin process, the statement's index in its program, the tag. */
    record Notification(int source, int index, int tag) {
    }

    /** For each (process, index of a wait statement), the notifications it matches, in matching order. */
    record Matching(Map<List<Integer>, List<Notification>> waits) {
        List<Notification> matched(final int proc, final int index) {
            return waits.getOrDefault(List.of(proc, index), List.of());
        }
    }

    private NotifyMatching() {
    }

    static List<Matching> of(final Program program) {
        List<Map<List<Integer>, List<Notification>>> partial = new ArrayList<>();
        partial.add(new HashMap<>());
        for (int p = 0; p < program.processCount(); p++) {
            final List<Map<List<Integer>, List<Notification>>> options = forProcess(program, p);
            final List<Map<List<Integer>, List<Notification>>> next = new ArrayList<>();
            for (final Map<List<Integer>, List<Notification>> base : partial) {
                for (final Map<List<Integer>, List<Notification>> option : options) {
                    final Map<List<Integer>, List<Notification>> m = new HashMap<>(base);
                    m.putAll(option);
                    next.add(m);
                }
            }
            partial = next;
        }
        final List<Matching> out = new ArrayList<>();
        partial.forEach(m -> out.add(new Matching(m)));
        return out;
    }

    /** @return the possible assignments of the notifications to process {@code p} to its waits. */
    private static List<Map<List<Integer>, List<Notification>>> forProcess(final Program program, final int p) {
        final Map<List<Integer>, List<Notification>> streams = streams(program, p);
        final List<Stmt> own = program.processes().get(p);
        final List<Integer> waits = new ArrayList<>();
        boolean wildcard = false;
        for (int i = 0; i < own.size(); i++) {
            if (own.get(i) instanceof Stmt.Wait w) {
                waits.add(i);
                wildcard |= w.wildcard();
            }
        }
        if (!wildcard) {
            final List<Map<List<Integer>, List<Notification>>> out = new ArrayList<>();
            out.add(inOrder(streams, own, waits, p));
            return out;
        }
        return interleavings(streams, own, waits, p);
    }

    /** @return the notified accesses to process {@code p}, one stream per (source, tag), each in program order. */
    private static Map<List<Integer>, List<Notification>> streams(final Program program, final int p) {
        final Map<List<Integer>, List<Notification>> streams = new LinkedHashMap<>();
        for (int q = 0; q < program.processCount(); q++) {
            final List<Stmt> stmts = program.processes().get(q);
            for (int i = 0; i < stmts.size(); i++) {
                final Stmt s = stmts.get(i);
                final String target = s instanceof Stmt.PutNotify pn
                    ? pn.target()
                    : s instanceof Stmt.GetNotify gn ? gn.target() : null;
                if (target != null && program.variable(target).owner() == p) {
                    final int tag = s instanceof Stmt.PutNotify pn ? pn.tag() : ((Stmt.GetNotify)s).tag();
                    streams.computeIfAbsent(List.of(q, tag), k -> new ArrayList<>()).add(new Notification(q, i, tag));
                }
            }
        }
        return streams;
    }

    /** @return the one matching of waits that name source and tag: the k-th of a stream goes to its k-th wait. */
    private static Map<List<Integer>, List<Notification>> inOrder(final Map<List<Integer>, List<Notification>> streams,
        final List<Stmt> own, final List<Integer> waits, final int p) {
        final Map<List<Integer>, Integer> next = new HashMap<>();
        final Map<List<Integer>, List<Notification>> m = new HashMap<>();
        for (final int i : waits) {
            final Stmt.Wait w = (Stmt.Wait)own.get(i);
            final List<Integer> key = List.of(w.source(), w.tag());
            final List<Notification> stream = streams.getOrDefault(key, List.of());
            final List<Notification> taken = new ArrayList<>();
            for (int k = 0; k < w.count(); k++) {
                final int at = next.merge(key, 1, Integer::sum) - 1;
                if (at < stream.size()) {
                    taken.add(stream.get(at));
                }
            }
            m.put(List.of(p, i), taken);
        }
        return m;
    }

    /**
     * @return the matchings of waits on any source or tag: every interleaving of the streams, each stream
     *         in order, the waits taking the notifications consecutively.
     */
    private static List<Map<List<Integer>, List<Notification>>> interleavings(
        final Map<List<Integer>, List<Notification>> streams, final List<Stmt> own, final List<Integer> waits,
        final int p) {
        final List<Map<List<Integer>, List<Notification>>> out = new ArrayList<>();
        final List<List<Notification>> lists = new ArrayList<>(streams.values());
        interleave(lists, new int[lists.size()], new ArrayList<>(), sequence -> {
            if (out.size() >= MAX_INTERLEAVINGS) {
                throw new IllegalArgumentException("process " + p + " can match its notifications in more than "
                    + MAX_INTERLEAVINGS + " ways; the model does not enumerate them");
            }
            final Map<List<Integer>, List<Notification>> m = new HashMap<>();
            int at = 0;
            for (final int i : waits) {
                final int count = ((Stmt.Wait)own.get(i)).count();
                m.put(List.of(p, i), List.copyOf(sequence.subList(at, Math.min(sequence.size(), at + count))));
                at += count;
            }
            out.add(m);
        });
        return out;
    }

    private static void interleave(final List<List<Notification>> lists, final int[] next, final List<Notification> acc,
        final java.util.function.Consumer<List<Notification>> sink) {
        boolean done = true;
        for (int i = 0; i < lists.size(); i++) {
            if (next[i] < lists.get(i).size()) {
                done = false;
                acc.add(lists.get(i).get(next[i]++));
                interleave(lists, next, acc, sink);
                next[i]--;
                acc.removeLast();
            }
        }
        if (done) {
            sink.accept(acc);
        }
    }
}
