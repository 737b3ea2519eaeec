package org.datampi.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's peak resident memory (VmHWM), as Linux reports it. */
public final class ProcessMemory {
    private ProcessMemory() {
    }

    /** Peak resident set size in bytes, or -1 where /proc does not tell it. */
    public static long peakResidentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
