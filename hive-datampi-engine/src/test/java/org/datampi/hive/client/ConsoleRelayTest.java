package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

class ConsoleRelayTest {
    private final List<String> printed = new CopyOnWriteArrayList<>();

    /** Hive's console is the printing thread's session's: a line said elsewhere waits for Hive's thread. */
    @Test
    void aLineSaidOnAnotherThreadWaitsForHivesThread() throws Exception {
        ConsoleRelay relay = new ConsoleRelay(printed::add);
        Thread attempts = new Thread(() -> {
            relay.accept("retry");
            relay.flush();
        });
        attempts.start();
        attempts.join();
        assertEquals(List.of(), printed, "not printed on the other thread");

        relay.accept("now");
        assertEquals(List.of("retry", "now"), printed, "in the order said, once Hive's thread prints");
        relay.flush();
        assertEquals(List.of("retry", "now"), printed, "each line once");
    }
}
