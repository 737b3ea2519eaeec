package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.datampi.mpid.RankProgram;
import org.datampi.mpid.StageRuntime;
import org.datampi.mpid.StagedProgram;
import org.datampi.mpid.TaskProgram;
import org.junit.jupiter.api.Test;

class ProgramClassTest {
    /** What the programs below were given, by task. */
    private static final List<String> CALLS = new ArrayList<>();

    @Test
    void aRankProgramIsMadeNewForEachJob() {
        ProgramClass program = ProgramClass.forName(Staged.class.getName());
        RankProgram first = program.newProgram();
        RankProgram second = program.newProgram();
        assertInstanceOf(Staged.class, first);
        assertNotSame(first, second, "nothing of one job reaches the next");
        assertInstanceOf(TaskProgram.class, ProgramClass.forName(Tasks.class.getName()).newProgram());
    }

    @Test
    void anMpiDProgramRunsItsMainForEachTaskAndItsFailureComesOutAsItIs() throws Exception {
        RankProgram program = ProgramClass.forName(PaperProgram.class.getName()).newProgram();
        TaskProgram tasks = assertInstanceOf(TaskProgram.class, program);
        CALLS.clear();
        tasks.runTask(new String[] {"a", "b"});
        assertEquals(List.of("main a b"), CALLS);
        IOException failure = assertThrows(IOException.class, () -> tasks.runTask(new String[] {"fail"}));
        assertEquals("task failed", failure.getMessage());
        assertSame(AssertionError.class, assertThrows(AssertionError.class,
                () -> tasks.runTask(new String[] {"error"})).getClass());
    }

    @Test
    void aWrongProgramIsRefusedNamingItsClass() {
        assertEquals("Class com.example.Missing is not on the job's classpath (-jar)", assertThrows(
                IllegalArgumentException.class, () -> ProgramClass.forName("com.example.Missing")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProgramClass.forName(String.class.getName()))
                .getMessage().startsWith("java.lang.String is neither a org.datampi.mpid.RankProgram nor a class "
                        + "with a public static main(String[])"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProgramClass.forName(
                NoPublicConstructor.class.getName())).getMessage().endsWith(
                        "is a RankProgram without a public constructor of no arguments"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProgramClass.forName(
                InstanceMain.class.getName())).getMessage().endsWith(".main is not static"));
        IllegalStateException failed = assertThrows(IllegalStateException.class,
                () -> ProgramClass.forName(FailingConstructor.class.getName()).newProgram());
        assertTrue(failed.getMessage().contains("no job today"), failed.getMessage());
    }

    public static final class Staged implements StagedProgram {
        public Staged() {
        }

        @Override
        public void runStages(String[] args, StageRuntime stages) {
        }
    }

    public static final class Tasks implements TaskProgram {
        public Tasks() {
        }

        @Override
        public void runTask(String[] args) {
        }
    }

    public static final class PaperProgram {
        private PaperProgram() {
        }

        public static void main(String[] args) throws IOException {
            if (args[0].equals("fail")) {
                throw new IOException("task failed");
            }
            if (args[0].equals("error")) {
                throw new AssertionError("an error");
            }
            CALLS.add("main " + String.join(" ", args));
        }
    }

    public static final class NoPublicConstructor implements TaskProgram {
        private NoPublicConstructor() {
        }

        @Override
        public void runTask(String[] args) {
        }
    }

    public static final class InstanceMain {
        public void main(String[] args) {
        }
    }

    public static final class FailingConstructor implements TaskProgram {
        public FailingConstructor() {
            throw new IllegalStateException("no job today");
        }

        @Override
        public void runTask(String[] args) {
        }
    }
}
