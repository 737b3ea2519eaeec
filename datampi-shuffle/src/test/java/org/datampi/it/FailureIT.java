package org.datampi.it;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A failing task or a dying rank ends the whole job quickly, says where, and leaves no process or spill file. */
class FailureIT {
    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}: {1} in task {2}")
    @CsvSource({
        "openmpi, throw-in-o, 3, rank, O task 3: java.lang.IllegalStateException: injected failure in O task 3",
        "openmpi, throw-in-a, 1, rank, A task 1: java.lang.IllegalArgumentException: injected failure in A task 1",
        "openmpi, halt-in-o, 2, , ",
        "mpich, throw-in-o, 3, rank, O task 3: java.lang.IllegalStateException: injected failure in O task 3",
        "mpich, halt-in-o, 2, , "})
    void aFailureEndsTheJobWithItsCause(String mpi, String fault, int task, String rankWord, String cause)
            throws Exception {
        Path spillDir = Files.createDirectories(temp.resolve("spill"));
        Mpidrun.Result result = Mpidrun.run(Duration.ofMinutes(2), List.of("-mode", "COM", "-O", "6", "-A", "3",
                "-np", "2", "--mpi", mpi, "--heap", "256m", "-D", "mpid.memusedpercent=0.002",
                "-D", "mpid.local.dir=" + spillDir, "-jar", Mpidrun.testClasses().toString(),
                FaultInjectionJob.class.getName(), fault, "" + task, "40000"));

        assertNotEquals(0, result.exitCode(), result.stderr());
        assertTrue(result.elapsed().toSeconds() < 60, "ended within seconds: " + result.elapsed());
        if (cause != null) {
            String firstError = result.stderr().lines().filter(line -> line.startsWith("datampi: job failed"))
                    .findFirst().orElse("");
            assertTrue(firstError.contains(rankWord) && firstError.endsWith(cause), result.stderr());
        }
        assertTrue(result.stderr().contains("mpidrun: job " + result.jobId() + " failed"), result.stderr());
        Mpidrun.assertNoProcessLeft(result.jobId());
        Mpidrun.assertNoLocalFileLeft(spillDir);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mpid.memusedpercent=2", "mpid.sendqueue=none", "mpid.compression=gzip"})
    void aBadSettingNamesTheKeyAndTheAcceptedValues(String setting) throws Exception {
        Mpidrun.Result result = Mpidrun.run(Duration.ofMinutes(1), List.of("-mode", "COM", "-O", "2", "-A", "1",
                "-np", "2", "--heap", "256m", "-D", setting, "-jar", Mpidrun.testClasses().toString(),
                FaultInjectionJob.class.getName(), "none", "0", "10"));
        assertNotEquals(0, result.exitCode());
        String key = setting.substring(0, setting.indexOf('='));
        assertTrue(result.stderr().contains("Invalid value '" + setting.substring(key.length() + 1) + "' for " + key
                + ": expected"), result.stderr());
        Mpidrun.assertNoProcessLeft(result.jobId());
    }

    @ParameterizedTest
    @CsvSource({
        "-mode, MAP, -mode must be COM",
        "-O, 0, -O must be an integer >= 1",
        "--mpi, lam, --mpi / DATAMPI_MPI must be openmpi, mpich or impi",
        "-np, 1000, -np 1000 is more than this machine's"})
    void aBadLauncherOptionIsRefusedBeforeAnythingStarts(String option, String value, String message)
            throws Exception {
        List<String> arguments = new ArrayList<>(List.of("-mode", "COM", "-O", "2", "-A", "1"));
        int at = arguments.indexOf(option);
        if (at >= 0) {
            arguments.set(at + 1, value);
        } else {
            arguments.addAll(List.of(option, value));
        }
        arguments.addAll(List.of("-jar", Mpidrun.testClasses().toString(), FaultInjectionJob.class.getName()));
        Mpidrun.Result result = Mpidrun.run(Duration.ofSeconds(30), arguments);
        assertNotEquals(0, result.exitCode());
        assertTrue(result.stderr().contains(message), result.stderr());
    }
}
