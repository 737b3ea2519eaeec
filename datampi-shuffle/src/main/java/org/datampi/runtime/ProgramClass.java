package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import org.datampi.mpid.RankProgram;
import org.datampi.mpid.TaskProgram;

/**
 * The program a job runs, by the class name mpidrun was given: a {@link RankProgram}, made new for each job through
 * its public constructor without arguments, or a class with only the paper's {@code public static void
 * main(String[])} (an MPI_D program), which runs as a {@link TaskProgram} whose tasks call main. Resolved before MPI
 * starts, so that a wrong name fails every rank alike, with a message naming the class.
 */
final class ProgramClass {
    private final Class<?> type;
    /** The constructor of a RankProgram, else null. */
    private final Constructor<? extends RankProgram> constructor;
    /** The main method of an MPI_D program, else null. */
    private final Method main;

    private ProgramClass(Class<?> type, Constructor<? extends RankProgram> constructor, Method main) {
        this.type = requireNonNull(type, "type is null");
        this.constructor = constructor;
        this.main = main;
    }

    static ProgramClass forName(String className) {
        requireNonNull(className, "className is null");
        Class<?> type;
        try {
            type = Class.forName(className);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("Class " + className + " is not on the job's classpath (-jar)");
        }
        if (RankProgram.class.isAssignableFrom(type)) {
            try {
                return new ProgramClass(type, type.asSubclass(RankProgram.class).getConstructor(), null);
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(className + " is a " + RankProgram.class.getSimpleName()
                        + " without a public constructor of no arguments");
            }
        }
        Method main;
        try {
            main = type.getMethod("main", String[].class);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(className + " is neither a " + RankProgram.class.getName()
                    + " nor a class with a public static main(String[])");
        }
        if (!Modifier.isStatic(main.getModifiers())) {
            throw new IllegalArgumentException(className + ".main is not static");
        }
        return new ProgramClass(type, null, main);
    }

    /** A new program for one job on this rank. */
    RankProgram newProgram() {
        if (constructor == null) {
            return new MainProgram(main);
        }
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Creating " + type.getName() + " failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot create " + type.getName() + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return type.getName();
    }

    /** An MPI_D program: each task calls its main, as the paper's mpidrun does. */
    private record MainProgram(Method main) implements TaskProgram {
        @Override
        public void runTask(String[] args) throws Exception {
            try {
                main.invoke(null, (Object) args);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof Exception cause) {
                    throw cause;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw e;
            }
        }
    }
}
