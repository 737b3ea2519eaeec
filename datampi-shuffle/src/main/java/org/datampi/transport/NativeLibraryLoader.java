package org.datampi.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Loads the JNI binding built for one MPI implementation from this module's classpath resources, so that a rank
 * needs no hand-set LD_LIBRARY_PATH: from the class directory as is, or extracted from the jar to a private file.
 */
final class NativeLibraryLoader {
    private NativeLibraryLoader() {
    }

    static void load(MpiImplementation implementation) {
        String resource = "/native/libdatampi_mpi_" + implementation.bindingTag() + ".so";
        URL url = NativeLibraryLoader.class.getResource(resource);
        if (url == null) {
            throw new MpiException("The JNI binding for " + implementation.bindingTag() + " (" + resource
                    + ") is not in this build; install that MPI implementation (bin/setup --mpi "
                    + implementation.bindingTag() + ") and rebuild");
        }
        try {
            if ("file".equals(url.getProtocol())) {
                System.load(Path.of(url.toURI()).toString());
                return;
            }
            // Removed as soon as it is loaded (the mapping outlives the file's name), so that no copy is left behind
            // by a rank that is killed, as deleteOnExit would leave one.
            Path extracted = Files.createTempFile("libdatampi_mpi_" + implementation.bindingTag(), ".so");
            try {
                try (InputStream in = url.openStream()) {
                    Files.copy(in, extracted, StandardCopyOption.REPLACE_EXISTING);
                }
                System.load(extracted.toString());
            } finally {
                Files.deleteIfExists(extracted);
            }
        } catch (IOException | URISyntaxException e) {
            throw new MpiException("Cannot load the JNI binding " + resource + ": " + e);
        }
    }
}
