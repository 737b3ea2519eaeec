package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class LaunchArgumentsTest {
    @Test
    void parsesTheLauncherCommandLine() {
        LaunchArguments launch = LaunchArguments.parse(
                new String[] {"--job-id", "job_1", "-O", "8", "-A", "3", "com.example.Main", "-x", "y"});
        assertEquals("job_1", launch.jobId());
        assertEquals(8, launch.oTasks());
        assertEquals(3, launch.aTasks());
        assertEquals("com.example.Main", launch.mainClass());
        assertEquals(List.of("-x", "y"), launch.programArguments());
    }

    @Test
    void badCountsNameTheOption() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> LaunchArguments.parse(
                new String[] {"--job-id", "j", "-O", "0", "-A", "1", "Main"}));
        assertTrue(zero.getMessage().contains("-O"), zero.getMessage());
        IllegalArgumentException text = assertThrows(IllegalArgumentException.class, () -> LaunchArguments.parse(
                new String[] {"--job-id", "j", "-O", "1", "-A", "many", "Main"}));
        assertTrue(text.getMessage().contains("-A") && text.getMessage().contains("many"), text.getMessage());
    }
}
