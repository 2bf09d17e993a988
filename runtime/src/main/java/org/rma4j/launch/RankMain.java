package org.rma4j.launch;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;

/**
 * The main class of every rank the {@link Launcher} starts: {@code RankMain MainClass args...} starts the
 * rank's watch on its launcher ({@link LauncherWatch}) and then runs {@code MainClass.main(args)} on the
 * same thread, as {@code java MainClass args...} would (its exceptions reach the JVM unchanged).
 *
 * <p>Started without the launcher's environment, it only runs the main class.
 */
public final class RankMain {
    /** Exit status when the main class cannot be run, as the {@code java} launcher's. */
    static final int EXIT_NO_MAIN = 1;

    private RankMain() {
    }

    /**
     * @param args the main class, then its arguments.
     * @throws Throwable whatever the program's main method throws.
     */
    public static void main(final String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("Error: " + RankMain.class.getName() + " needs the main class to run");
            System.exit(EXIT_NO_MAIN);
        }
        LauncherWatch.startFromEnvironment();
        final MethodHandle main = findMain(args[0]);
        final String[] programArgs = Arrays.copyOfRange(args, 1, args.length);
        main.invokeExact(programArgs);
    }

    private static MethodHandle findMain(final String name) {
        final Class<?> mainClass;
        try {
            mainClass = Class.forName(name, true, ClassLoader.getSystemClassLoader());
        } catch (final ClassNotFoundException | LinkageError e) {
            System.err.println("Error: Could not find or load main class " + name);
            System.err.println("Caused by: " + e);
            System.exit(EXIT_NO_MAIN);
            throw new AssertionError(e);
        }
        try {
            final MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(mainClass, MethodHandles.lookup());
            return lookup.findStatic(mainClass, "main", MethodType.methodType(void.class, String[].class));
        } catch (final ReflectiveOperationException | IllegalArgumentException e) {
            System.err.println("Error: Main method not found in class " + name + ", please define the main method as:");
            System.err.println("   public static void main(String[] args)");
            System.exit(EXIT_NO_MAIN);
            throw new AssertionError(e);
        }
    }
}
