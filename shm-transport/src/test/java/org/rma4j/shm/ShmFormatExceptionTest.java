package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class ShmFormatExceptionTest {
    @Test
    void shouldNameFileAndProblem() {
        final ShmFormatException thrown = new ShmFormatException(Path.of("/dev/shm/rma4j-x/control"), "bad magic");

        assertEquals("shared file /dev/shm/rma4j-x/control: bad magic", thrown.getMessage());
    }

    @Test
    void shouldBeAnIllegalStateException() {
        assertInstanceOf(IllegalStateException.class, new ShmFormatException(Path.of("f"), "p"));
    }
}
