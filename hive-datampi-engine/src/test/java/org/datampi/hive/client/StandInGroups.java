package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.datampi.status.StatusSender;

/**
 * Groups of ranks stood in for by a shell that reads its jobs and ends as told, while the test speaks for the ranks on
 * the group's status channel, from the address and token the pool gave the stand-in: a {@link RankPool}'s side, with
 * no MPI.
 */
final class StandInGroups {
    private final Path dir;
    private final LongSupplier nanoClock;

    /** Groups whose files are in DIR, their idle time told by NANO_CLOCK. */
    StandInGroups(Path dir, LongSupplier nanoClock) {
        this.dir = requireNonNull(dir, "dir is null");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
    }

    /**
     * A pool whose stand-in for mpidrun ({@link #launch}) runs SCRIPT. Returns once the status channel's variables are
     * written: the stand-in writes nothing more of its own, so that no file of it appears in DIR after the test (a
     * pool's close lets its group end by itself, later).
     */
    RankPool start(String script, int idleSeconds) throws Exception {
        RankPool pool = RankPool.start(launch(script), idleSeconds, nanoClock, () -> { });
        try {
            awaitTrue(() -> Files.exists(dir.resolve("status")));
        } catch (Exception | AssertionError e) {
            pool.kill();
            throw e;
        }
        return pool;
    }

    /**
     * The launch of a stand-in for mpidrun that leaves the status channel's variables for {@link #ranks}, then runs
     * SCRIPT; the variables of an earlier stand-in are removed.
     */
    GroupLaunch launch(String script) throws Exception {
        Path variables = dir.resolve("status");
        Files.deleteIfExists(variables);
        return new GroupLaunch(List.of("bash", "-c", "printf '%s\\n%s\\n' \"$" + StatusSender.ADDRESS_VARIABLE
                + "\" \"$" + StatusSender.TOKEN_VARIABLE + "\" > " + variables + ".tmp && mv " + variables + ".tmp "
                + variables + " && " + script), false);
    }

    /** The ranks' end of the status channel of the pool started last, once its stand-in has written it. */
    StatusSender ranks() throws Exception {
        awaitTrue(() -> Files.exists(dir.resolve("status")));
        List<String> lines = Files.readAllLines(dir.resolve("status"));
        return StatusSender.fromEnvironment(Map.of(StatusSender.ADDRESS_VARIABLE, lines.get(0),
                StatusSender.TOKEN_VARIABLE, lines.get(1)));
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    /** Waits, polling every 10 ms, for CONDITION to hold; fails the test after 10 s. */
    static void awaitTrue(Condition condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.holds()) {
            assertTrue(System.nanoTime() < deadline, "not within 10 s");
            Thread.sleep(10);
        }
    }
}
