package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.datampi.mpid.KeyOrder;
import org.datampi.shuffle.ShuffleSettings;
import org.datampi.shuffle.codec.BlockCodec;
import org.datampi.shuffle.spill.SpillFiles;
import org.datampi.transport.InMemoryTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ranks' protocol around the shuffle (end-of-data markers, key order), over the in-memory transport. */
class RankShuffleTest {
    private static final KeyOrder TEXT = new KeyOrder(Text.class.getName(), "");
    private static final KeyOrder INTS = new KeyOrder(IntWritable.class.getName(), "");

    @TempDir
    Path dir;
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final InMemoryTransport world = new InMemoryTransport(2);
    private RankShuffle zero;
    private RankShuffle one;

    @AfterEach
    void stop() {
        for (RankShuffle rank : new RankShuffle[] {zero, one}) {
            if (rank != null) {
                try {
                    rank.signOff();
                    rank.engine().drainAndStop();
                } catch (IllegalStateException e) {
                    // A test's lost rank failed this one's engine: stopped all the same.
                }
            }
        }
    }

    @Test
    void aStageEndsOnEveryRankOnceEachHasMarkedTheEndOfItsData() throws Exception {
        startBoth();
        zero.finishSending(3);
        awaitTrue(() -> zero.endMarkersReceived() == 1 && one.endMarkersReceived() == 1);
        assertFalse(zero.allDataArrived(3), "one rank of two is through");
        assertFalse(one.allDataArrived(3));
        one.finishSending(3);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            zero.awaitAllData(3);
            one.awaitAllData(3);
        });
        assertTrue(zero.allDataArrived(3));
        assertFalse(zero.allDataArrived(4), "another stage's data has not");
        assertEquals(2, zero.endMarkersReceived());
        assertTrue(failures.isEmpty(), failures.toString());
    }

    @Test
    void theKeyOrderReachesEveryRankAndAnotherFromTheSameRankIsRefused() {
        startBoth();
        assertTrue(one.receivedKeyOrder().isEmpty(), "nothing announced yet");
        zero.announceKeyOrder(TEXT);
        awaitTrue(() -> one.receivedKeyOrder().isPresent() && zero.receivedKeyOrder().isPresent());
        assertEquals(TEXT, one.receivedKeyOrder().orElseThrow());
        assertEquals(TEXT, zero.receivedKeyOrder().orElseThrow(), "its own too");
        zero.announceKeyOrder(TEXT);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> zero.announceKeyOrder(INTS));
        assertTrue(refused.getMessage().startsWith("Senders on rank 0 use key type " + IntWritable.class.getName()),
                refused.getMessage());
    }

    @Test
    void aWaitForTheStagesDataEndsWhenAPeerIsLost() {
        startBoth();
        world.kill(1);
        IllegalStateException lost = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> assertThrows(IllegalStateException.class, () -> zero.awaitAllData(0)));
        assertTrue(lost.getMessage().startsWith("The shuffle engine failed"), lost.getMessage());
    }

    private void startBoth() {
        zero = rank(0);
        one = rank(1);
        zero.start();
        one.start();
    }

    private RankShuffle rank(int rank) {
        ShuffleSettings settings = new ShuffleSettings(0.05, 6, 64 * 1024, BlockCodec.NONE, dir, 2, 10,
                ShuffleSettings.DEFAULT_LOCALITY_WAIT);
        return new RankShuffle(world.endpoint(rank), "job_test", rank, 2, "host" + rank, settings,
                new SpillFiles(dir.resolve("rank-" + rank)), Optional.empty(), failures::add);
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 10 s");
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }
}
