package org.datampi.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.datampi.status.RankStatus.GroupUp;
import org.datampi.status.RankStatus.JobDone;
import org.datampi.status.RankStatus.RankFailed;
import org.junit.jupiter.api.Test;

/** The status channel over real TCP connections on this host, as a rank group and its job runner use it. */
class StatusChannelTest {
    private static final RankFailed FAILED = new RankFailed(2, "dmp2", "vertex Map 1, task 0",
            "java.io.IOException: boom\n  on two lines", false, Optional.of("/logs/job_1/rank-2.log"),
            List.of("INFO started", "WARN slow"));

    @Test
    void everyKindOfRecordArrivesAsSentAndInOrder() throws Exception {
        List<RankStatus> received = new CopyOnWriteArrayList<>();
        List<RankStatus> sent = List.of(new GroupUp(List.of("dmp1", "dmp1", "dmp2"), "/logs/job_1"),
                new JobProgress(0, 4, 0, 2, List.of()),
                new JobProgress(3, 4, 1, 2, List.of(new JobProgress.Stage(3, 1, 4), new JobProgress.Stage(1, 0, 2))),
                new JobDone("job_datampi_1"), FAILED);
        try (StatusReceiver receiver = StatusReceiver.open(false, received::add)) {
            try (StatusSender sender = StatusSender.fromEnvironment(receiver.environment())) {
                assertTrue(sender.hasReceiver());
                sent.forEach(sender::send);
            }
            assertTrue(receiver.awaitDrained(5000), "the closed connection is read to its end");
        }
        assertEquals(sent, received);
    }

    @Test
    void aFailingRanksReportSentJustBeforeItEndsIsReadByTheTimeTheDrainReturns() throws Exception {
        List<RankStatus> received = new CopyOnWriteArrayList<>();
        try (StatusReceiver receiver = StatusReceiver.open(false, received::add)) {
            for (int rank = 0; rank < 8; rank++) {
                try (StatusSender sender = StatusSender.fromEnvironment(receiver.environment())) {
                    sender.send(new JobDone("job_" + rank));
                }
            }
            assertTrue(receiver.awaitDrained(5000));
            assertEquals(8, received.size(), "every connection made before the drain: " + received);
        }
    }

    @Test
    void aConnectionWithoutTheGroupsTokenIsTurnedAway() throws Exception {
        List<RankStatus> received = new CopyOnWriteArrayList<>();
        try (StatusReceiver receiver = StatusReceiver.open(false, received::add)) {
            Map<String, String> forged = new HashMap<>(receiver.environment());
            forged.put(StatusSender.TOKEN_VARIABLE, "0123456789abcdef");
            // Either side may see the other go first: the receiver closes on the wrong token (a broken pipe here).
            try (StatusSender impostor = StatusSender.fromEnvironment(forged)) {
                impostor.send(new JobDone("job_forged"));
            } catch (UncheckedIOException turnedAway) {
                // turned away while it still wrote
            }
            // Not even a greeting: bytes that are not the channel's.
            String address = receiver.environment().get(StatusSender.ADDRESS_VARIABLE);
            try (Socket stranger = new Socket(address.substring(0, address.lastIndexOf(':')),
                    Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
                    DataOutputStream out = new DataOutputStream(stranger.getOutputStream())) {
                out.writeBytes("GET / HTTP/1.0\r\n\r\n");
            } catch (IOException turnedAway) {
                // turned away while it still wrote
            }
            try (StatusSender rank = StatusSender.fromEnvironment(receiver.environment())) {
                rank.send(new JobDone("job_1"));
            }
            assertTrue(receiver.awaitDrained(5000));
        }
        assertEquals(List.of(new JobDone("job_1")), received);
    }

    @Test
    void aLocalGroupsChannelListensOnLoopbackOnly() {
        try (StatusReceiver receiver = StatusReceiver.open(false, status -> { })) {
            String address = receiver.environment().get(StatusSender.ADDRESS_VARIABLE);
            assertTrue(address.startsWith("127.0.0.1:"), address);
            assertEquals(32, receiver.environment().get(StatusSender.TOKEN_VARIABLE).length(), "128 random bits");
        }
    }

    @Test
    void aSinkThatThrowsLosesOnlyThatRecord() throws Exception {
        List<RankStatus> received = new CopyOnWriteArrayList<>();
        try (StatusReceiver receiver = StatusReceiver.open(false, status -> {
            if (status instanceof JobDone done && done.jobId().equals("job_bad")) {
                throw new IllegalStateException("cannot handle " + done);
            }
            received.add(status);
        })) {
            try (StatusSender sender = StatusSender.fromEnvironment(receiver.environment())) {
                sender.send(new JobDone("job_bad"));
                sender.send(new JobDone("job_good"));
            }
            assertTrue(receiver.awaitDrained(5000));
        }
        assertEquals(List.of(new JobDone("job_good")), received);
    }

    @Test
    void withoutAJobRunnerRecordsGoNowhere() {
        StatusSender sender = StatusSender.fromEnvironment(Map.of());
        assertFalse(sender.hasReceiver());
        sender.send(FAILED);
        sender.close();
    }

    @Test
    void aGoneJobRunnerIsAnErrorNamingItsAddress() throws IOException {
        // A port held but not listened on (a closed receiver's port could be taken again meanwhile): refused.
        try (Socket held = new Socket()) {
            held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            String address = "127.0.0.1:" + held.getLocalPort();
            StatusSender sender = StatusSender.fromEnvironment(Map.of(StatusSender.ADDRESS_VARIABLE, address,
                    StatusSender.TOKEN_VARIABLE, "t"));
            UncheckedIOException error = assertThrows(UncheckedIOException.class, () -> sender.send(FAILED));
            assertTrue(error.getMessage().contains("job runner at " + address), error.getMessage());
        }
    }

    @Test
    void aBadAddressNamesTheVariable() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> StatusSender.fromEnvironment(Map.of(StatusSender.ADDRESS_VARIABLE, "dmp1",
                        StatusSender.TOKEN_VARIABLE, "t")));
        assertTrue(error.getMessage().contains(StatusSender.ADDRESS_VARIABLE)
                && error.getMessage().contains("HOST:PORT"), error.getMessage());
        IllegalArgumentException noToken = assertThrows(IllegalArgumentException.class,
                () -> StatusSender.fromEnvironment(Map.of(StatusSender.ADDRESS_VARIABLE, "dmp1:4000")));
        assertTrue(noToken.getMessage().contains(StatusSender.TOKEN_VARIABLE), noToken.getMessage());
    }

    @Test
    void aFailuresReportIsItsHeadlineThenTheLogsHostPathAndLastLines() {
        assertEquals("datampi: job failed on rank 2 (dmp2), vertex Map 1, task 0: java.io.IOException: boom on two "
                + "lines\ndmp2:/logs/job_1/rank-2.log, last lines:\n| INFO started\n| WARN slow", FAILED.report());
        assertEquals(List.of(FAILED.headline(), "datampi: rank 2 log dmp2:/logs/job_1/rank-2.log, last lines:",
                "datampi: rank 2 log | INFO started", "datampi: rank 2 log | WARN slow"), FAILED.consoleLines());
        RankFailed withoutLog = new RankFailed(0, "h", RankFailed.RANK_LOST, "Lost rank 1", true, Optional.empty(),
                List.of());
        assertEquals("datampi: job failed on rank 0 (h), rank lost: Lost rank 1", withoutLog.report());
    }

    @Test
    void aRecordOfAbsurdSizeEndsTheConnection() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(StatusCodec.MAX_RECORD_BYTES + 1);
        IOException error = assertThrows(IOException.class, () -> StatusCodec.read(
                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
        assertTrue(error.getMessage().contains("bytes"), error.getMessage());
    }

    @Test
    void aNegativeCountIsAnErrorNotACrash() throws IOException {
        ByteArrayOutputStream record = new ByteArrayOutputStream();
        DataOutputStream fields = new DataOutputStream(record);
        fields.writeByte(3 - 2); // a group-up record
        fields.writeInt(-5); // its hosts
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(record.size());
        record.writeTo(out);
        IOException error = assertThrows(IOException.class, () -> StatusCodec.read(
                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
        assertTrue(error.getMessage().contains("count of -5"), error.getMessage());
    }
}
