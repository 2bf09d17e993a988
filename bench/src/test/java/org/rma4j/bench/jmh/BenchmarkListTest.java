package org.rma4j.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * The JMH annotation processor ran: META-INF/BenchmarkList is on the class path and lists every
 * benchmark method. Since JDK 23 javac skips processors found on the class path unless told, and
 * the build still succeeds, so this is the check that the compiler configuration in bench/pom.xml
 * works.
 */
class BenchmarkListTest {
    private static final String RESOURCE = BenchmarkList.BENCHMARK_LIST.substring(1);

    @Test
    void shouldFindBenchmarkListOnClassPath() throws IOException {
        assertNotNull(BenchmarkListTest.class.getClassLoader().getResource(RESOURCE),
            RESOURCE + " is missing: the JMH annotation processor did not run");
        assertFalse(readList().isEmpty(), RESOURCE + " is empty");
    }

    @Test
    void shouldListEveryBenchmarkMethod() throws IOException {
        final Set<String> listed = readList().stream().map(BenchmarkListEntry::getUsername)
            .collect(Collectors.toCollection(TreeSet::new));
        final Set<String> declared = new TreeSet<>();
        for (final Class<?> type : BenchmarkClasses.ALL) {
            for (final Method method : type.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Benchmark.class)) {
                    // The methods of a @Group run together and are listed once, under the group's name.
                    final Group group = method.getAnnotation(Group.class);
                    declared.add(type.getName() + "." + (group != null ? group.value() : method.getName()));
                }
            }
        }
        assertTrue(declared.size() >= 26, "expected at least 19 benchmark methods, found " + declared);
        assertEquals(declared, listed);
    }

    @Test
    void shouldForkEveryBenchmarkWithNativeAccess() throws IOException {
        for (final BenchmarkListEntry entry : readList()) {
            assertTrue(
                entry.getJvmArgsAppend().hasValue() && entry.getJvmArgsAppend().get().contains(BenchJvm.NATIVE_ACCESS),
                entry.getUsername() + " forks without " + BenchJvm.NATIVE_ACCESS);
        }
    }

    @Test
    void shouldAnnotateEveryBenchmarkClassWithFork() {
        for (final Class<?> type : BenchmarkClasses.ALL) {
            assertTrue(Modifier.isPublic(type.getModifiers()), type + " must be public for JMH");
            final Fork fork = type.getAnnotation(Fork.class);
            assertNotNull(fork, type + " has no @Fork");
            assertTrue(List.of(fork.jvmArgsAppend()).contains(BenchJvm.NATIVE_ACCESS),
                type + " @Fork lacks native access");
        }
    }

    private static List<BenchmarkListEntry> readList() throws IOException {
        try (InputStream in = BenchmarkListTest.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            assertNotNull(in, RESOURCE + " is missing: the JMH annotation processor did not run");
            return BenchmarkList.readBenchmarkList(in);
        }
    }
}
