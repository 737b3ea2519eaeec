package org.datampi.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TaskBudgetTest {
    private final TaskBudget budget = new TaskBudget(2, 8192);

    @Test
    void everyEngineSpendsTheSameHeap() {
        assertEquals(2048, budget.taskHeapMb());
        assertEquals(8192, budget.clientHeapMb("datampi") + budget.tasks() * budget.taskHeapMb());
        assertEquals(8192, budget.clientHeapMb("tez-yarn") + TaskBudget.TEZ_AM_MB
                + budget.tasks() * budget.taskHeapMb());
        assertEquals(8192, budget.clientHeapMb("tez"));
        assertEquals(8192, budget.clientHeapMb("mr"));
    }

    @Test
    void onlyEnginesWithSeparateTaskProcessesRunTasksAtOnce() {
        assertEquals(2, budget.tasksAtOnce("datampi"));
        assertEquals(2, budget.tasksAtOnce("tez-yarn"));
        assertEquals(1, budget.tasksAtOnce("tez"));
        assertEquals(1, budget.tasksAtOnce("mr"));
        assertTrue(budget.describe("tez-yarn").startsWith("tez-yarn: 2 tasks at once"));
        assertEquals(budget.tasksAtOnce("datampi"), budget.tasksAtOnce("datampi-mr"), "the same ranks, both shapes");
        assertTrue(budget.describe("datampi-mr").startsWith("datampi-mr: 2 tasks at once"));
        assertEquals(budget.taskHeapMb(), 2048, "datampi-cache's ranks have datampi's heap, the cache within it");
        assertTrue(budget.describe("datampi-cache").startsWith("datampi-cache: 2 tasks at once"));
    }

    @Test
    void badBudgetsAndEnginesAreRefusedByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TaskBudget(0, 8192)).getMessage()
                .contains("--procs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TaskBudget(8, 1024)).getMessage()
                .contains("--heap"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> budget.clientHeapMb("spark")).getMessage()
                .contains("datampi, datampi-mr, datampi-cache, mr, tez, tez-yarn"));
    }
}
