package org.datampi.transport;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The MPI implementations datampi runs on. The launcher exports the chosen one as DATAMPI_MPI. Intel MPI shares
 * MPICH's ABI (as MVAPICH2 does): it runs the binding built against MPICH, unchanged, with Intel's libmpi.so.12
 * standing in for libmpich.so.12 (bin/mpidrun arranges that).
 */
public enum MpiImplementation {
    OPENMPI("openmpi"), MPICH("mpich"), IMPI("mpich");

    private final String bindingTag;

    MpiImplementation(String bindingTag) {
        this.bindingTag = bindingTag;
    }

    public static final String ENVIRONMENT_VARIABLE = "DATAMPI_MPI";
    public static final String SYSTEM_PROPERTY = "datampi.mpi";

    /** The implementation this process was launched with: system property, then environment, then Open MPI. */
    public static MpiImplementation current() {
        String name = System.getProperty(SYSTEM_PROPERTY, System.getenv(ENVIRONMENT_VARIABLE));
        return name == null || name.isBlank() ? OPENMPI : parse(name);
    }

    public static MpiImplementation parse(String name) {
        for (MpiImplementation implementation : values()) {
            if (implementation.libraryTag().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return implementation;
            }
        }
        throw new IllegalArgumentException("Unknown MPI implementation '" + name + "' in " + ENVIRONMENT_VARIABLE
                + "; accepted: " + Arrays.stream(values()).map(MpiImplementation::libraryTag)
                        .collect(Collectors.joining(", ")));
    }

    /** The lower-case name used in launcher flags and settings. */
    public String libraryTag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Which build of the JNI binding this implementation loads: its own, or the one of the ABI it shares. */
    public String bindingTag() {
        return bindingTag;
    }
}
