package org.datampi.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The JNI binding against each MPI implementation, through a plain MPI program on 2 real ranks. */
class MpiBindingIT {
    @ParameterizedTest
    @ValueSource(strings = {"openmpi", "mpich"})
    void everyCallWorksAndErrorsBecomeExceptions(String mpi) throws Exception {
        Mpidrun.Result result = Mpidrun.run(Duration.ofMinutes(1), List.of("--plain-mpi", "-np", "2", "--mpi", mpi,
                "--heap", "128m", "-jar", Mpidrun.testClasses().toString(), MpiBindingCheck.class.getName()))
                .assertSucceeded();
        assertEquals(2, result.stdout().lines().filter(line -> line.startsWith("binding ok")).count(), result.stdout());
        String library = mpi.equals("openmpi") ? "Open MPI" : "MPICH";
        assertTrue(result.stdout().contains(library), result.stdout());
        Mpidrun.assertNoProcessLeft(result.jobId());
    }
}
