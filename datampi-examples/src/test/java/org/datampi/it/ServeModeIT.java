package org.datampi.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** mpidrun --serve: processes that stay up and run the jobs of their standard input one after the other. */
class ServeModeIT {
    private static final String WORD_COUNT = "org.datampi.examples.WordCount";

    @TempDir
    Path temp;

    /** Each served job writes what the same job writes when mpidrun runs it alone. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"openmpi", "mpich"})
    void servedJobsMatchTheSameJobsRunAlone(String mpi) throws Exception {
        Path jobs = temp.resolve("jobs");
        Files.write(jobs, List.of(
                job("first", 3, 2, temp.resolve("served-1"), "uniform"),
                job("second", 5, 3, temp.resolve("served-2"), "skewed")));
        Mpidrun.Result served = Mpidrun.run(Duration.ofMinutes(2), List.of("-mode", "COM", "--serve", "-np", "2",
                "--mpi", mpi, "--heap", "256m", "-jar", Mpidrun.jar("datampi-examples").toString()),
                ProcessBuilder.Redirect.from(jobs.toFile())).assertSucceeded();
        assertTrue(served.stderr().contains("datampi: job first done")
                && served.stderr().contains("datampi: job second done"), served.stderr());
        assertEquals(2, Files.list(served.logDir()).count(), "one log per rank for all jobs");
        Mpidrun.assertNoProcessLeft(served.jobId());

        runAlone(mpi, 3, 2, temp.resolve("alone-1"), "uniform");
        runAlone(mpi, 5, 3, temp.resolve("alone-2"), "skewed");
        assertSameParts(temp.resolve("alone-1"), temp.resolve("served-1"), 2);
        assertSameParts(temp.resolve("alone-2"), temp.resolve("served-2"), 3);
    }

    @Test
    void aFailingJobEndsTheGroupWithItsCauseAndTheNextJobNeverRuns() throws Exception {
        Path jobs = temp.resolve("jobs");
        Files.write(jobs, List.of(
                String.join("\t", "--job-id", "failing", "-O", "4", "-A", "2", FaultInjectionJob.class.getName(),
                        "throw-in-o", "2", "1000"),
                job("after", 2, 2, temp.resolve("after"), "uniform")));
        Mpidrun.Result result = Mpidrun.run(Duration.ofMinutes(2), List.of("-mode", "COM", "--serve", "-np", "2",
                "--heap", "256m", "-jar", Mpidrun.testClasses().toString()),
                ProcessBuilder.Redirect.from(jobs.toFile()));
        assertNotEquals(0, result.exitCode(), result.stderr());
        assertTrue(result.stderr().contains("datampi: job failed on rank")
                && result.stderr().contains("injected failure in O task 2"), result.stderr());
        assertFalse(result.stderr().contains("datampi: job after done"), result.stderr());
        assertFalse(Files.exists(temp.resolve("after")), "the job after the failure never ran");
        Mpidrun.assertNoProcessLeft(result.jobId());
    }

    @Test
    void idleProcessesEndAfterTheIdleTime() throws Exception {
        // The input stays open and empty: only the idle time can end the group.
        Mpidrun.Result result = Mpidrun.run(Duration.ofMinutes(1), List.of("-mode", "COM", "--serve",
                "--idle-seconds", "2", "-np", "2", "--heap", "256m", "-jar", Mpidrun.jar("datampi-examples").toString()),
                ProcessBuilder.Redirect.PIPE).assertSucceeded();
        assertTrue(result.elapsed().toSeconds() < 30, "ended after the idle time: " + result.elapsed());
        Mpidrun.assertNoProcessLeft(result.jobId());
    }

    private static String job(String id, int oTasks, int aTasks, Path out, String distribution) {
        return String.join("\t", "--job-id", id, "-O", "" + oTasks, "-A", "" + aTasks, WORD_COUNT, out.toString(),
                "2000", "300", "5", distribution);
    }

    private static void runAlone(String mpi, int oTasks, int aTasks, Path out, String distribution)
            throws Exception {
        Mpidrun.run(Duration.ofMinutes(2), List.of("-mode", "COM", "-O", "" + oTasks, "-A", "" + aTasks, "-np", "2",
                "--mpi", mpi, "--heap", "256m", "-jar", Mpidrun.jar("datampi-examples").toString(), WORD_COUNT, out.toString(),
                "2000", "300", "5", distribution)).assertSucceeded();
    }

    private static void assertSameParts(Path expected, Path actual, int parts) throws Exception {
        for (int part = 0; part < parts; part++) {
            List<String> lines = Files.readAllLines(expected.resolve("part-" + part));
            assertFalse(lines.isEmpty(), "part-" + part + " has words");
            assertEquals(lines, Files.readAllLines(actual.resolve("part-" + part)), "part-" + part);
        }
    }
}
