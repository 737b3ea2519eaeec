package org.datampi.shuffle.spill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.datampi.shuffle.buffer.Pairs;
import org.datampi.shuffle.merge.MemoryRunCursor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spill directory goes as a whole when it is closed, whatever its writers are doing at that moment. */
class SpillFilesTest {
    @TempDir
    Path temp;

    /**
     * A rank's directory is closed by a shutdown hook (SIGTERM: scancel, mpirun stopping the job) while its spill
     * thread still writes runs. Each round closes the directory at another point of a writer's loop; none may leave
     * the directory behind (made again by a write that began before the close, or kept by a run created while it was
     * being deleted), and every write after the close is refused.
     */
    @Test
    void closingWhileAnotherThreadSpillsLeavesNoDirectory() throws Exception {
        byte[] run = Pairs.serialized(Pairs.random(11, 200, 30));
        List<Path> left = new ArrayList<>();
        for (int round = 0; round < 200; round++) {
            Path directory = temp.resolve("rank-" + round);
            Files.createDirectories(directory);
            SpillFiles spills = new SpillFiles(directory);
            CountDownLatch spilling = new CountDownLatch(1);
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    for (int partition = 0; ; partition++) {
                        spills.write(partition, new MemoryRunCursor(run, run.length));
                        spilling.countDown();
                    }
                } catch (IllegalStateException | java.io.UncheckedIOException expected) {
                    // Closed under it: refused, or its file's directory gone.
                } catch (Throwable e) {
                    unexpected.set(e);
                }
            });
            writer.start();
            assertTrue(spilling.await(10, TimeUnit.SECONDS), "the writer spills");
            Thread.sleep(round % 3);
            spills.close();
            writer.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(writer.isAlive(), "the writer stops once the directory is closed");
            assertEquals(null, unexpected.get());
            if (Files.exists(directory)) {
                left.add(directory);
            }
            assertThrows(IllegalStateException.class, () -> spills.write(0, new MemoryRunCursor(run, run.length)));
        }
        assertEquals(List.of(), left, "directories left behind");
    }
}
