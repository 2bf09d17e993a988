package org.rma4j.launch;

/**
 * Describes a process exit status the way shells report it: {@link Process#exitValue()} on Linux
 * returns 128 + n for a process ended by signal n, which cannot be told apart from an exit with that
 * status, so statuses 129..192 are described as signals.
 */
final class ExitStatus {
    private static final String[] SIGNAL_NAMES = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
        "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT",
        "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM",
        "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS",};
    private static final int SIGNAL_BASE = 128;
    private static final int MAX_SIGNAL = 64;
    private static final int SIGRTMIN = 34;

    private ExitStatus() {
    }

    /**
     * @param status an exit status as returned by {@link Process#exitValue()}.
     * @return e.g. {@code "status 3"} or {@code "status 137, killed by signal 9 (SIGKILL)"}.
     */
    static String describe(final int status) {
        final int signal = signal(status);
        if (signal == 0) {
            return "status " + status;
        }
        return "status " + status + ", killed by signal " + signal + " (" + signalName(signal) + ")";
    }

    /**
     * @return the signal that {@code status} stands for, or 0 if it is a normal exit status.
     */
    static int signal(final int status) {
        return status > SIGNAL_BASE && status <= SIGNAL_BASE + MAX_SIGNAL ? status - SIGNAL_BASE : 0;
    }

    static String signalName(final int signal) {
        if (signal > 0 && signal < SIGNAL_NAMES.length) {
            return SIGNAL_NAMES[signal];
        }
        return signal >= SIGRTMIN ? "SIGRTMIN+" + (signal - SIGRTMIN) : "an unnamed signal";
    }
}
