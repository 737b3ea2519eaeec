package org.datampi.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class WhereTimeGoesTest {
    @Test
    void aStageIsCountedOnceForItsTwoLines() {
        assertEquals(2, WhereTimeGoes.stageCount(List.of(
                "Stage-1 job_datampi1_0008: Map 2 (1 tasks), Reducer 4 (3 tasks); on 2 ranks",
                "Stage-1 job_datampi1_0008 10.04 s: submit 0.17 s, launch 0.04 s, tasks 9.82 s",
                "Stage-2 job_datampi1_0009: Map 1 (1 tasks); on 2 ranks",
                "Stage-2 job_datampi1_0009 1.00 s: submit 0.10 s, launch 0.04 s, tasks 0.82 s")));
    }

    @Test
    void datampisVertexTablesAreTakenFromEachStageOfARun() {
        List<String> run = List.of(
                "bench: begin q21 run 1",
                "datampi: Stage-1 job_1: Map 1 (4 tasks), Reducer 2 (1 tasks); on 2 ranks",
                "2026-11-26 11:51:20,204 Stage-1 Map 1: 0/4, Reducer 2: 0/1",
                "Task Execution Summary",
                "-----------------------",
                "VERTICES      TASKS  DURATION(ms)  CPU_TIME(ms)",
                "-----------------------",
                "Map 1             4        16,300        29,780",
                "Reducer 2         1            84           140",
                "-----------------------",
                "2 ranks; received data spilled to local disk: 0 B",
                "datampi: rank logs in /logs/job_1 (ranks 0-1 on vm)",
                "Task Execution Summary",
                "VERTICES      TASKS  DURATION(ms)  CPU_TIME(ms)",
                "Map 1             2         1,000         1,900",
                "2 ranks; received data spilled to local disk: 1.5 GB",
                "bench: q21 run 1 on datampi: 17.16 s (Hive's compile 0.53 s), 4 rows");
        assertEquals(List.of(
                "Task Execution Summary",
                "VERTICES      TASKS  DURATION(ms)  CPU_TIME(ms)",
                "Map 1             4        16,300        29,780",
                "Reducer 2         1            84           140",
                "2 ranks; received data spilled to local disk: 0 B",
                "Task Execution Summary",
                "VERTICES      TASKS  DURATION(ms)  CPU_TIME(ms)",
                "Map 1             2         1,000         1,900",
                "2 ranks; received data spilled to local disk: 1.5 GB"), WhereTimeGoes.datampiSummary(run));
        assertEquals(List.of(), WhereTimeGoes.datampiSummary(List.of("bench: q1 run 1 on datampi: 1.00 s")));
    }
}
