package org.datampi.status;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The status channel's wire format, one connection per sending rank: a greeting (magic, version, the group's token),
 * then records, each as its length and its bytes (a kind, then its fields in Java's modified UTF-8 and big-endian
 * ints). The length lets a reader refuse a record of absurd size before reading it; the version lets either side
 * tell a launcher and ranks of different builds apart instead of misreading them.
 */
final class StatusCodec {
    static final int MAGIC = 0x444d5053; // "DMPS"
    static final int VERSION = 1;
    /** The largest record read: a failure's cause and log tail are cut well below it. */
    static final int MAX_RECORD_BYTES = 1 << 20;
    /** Strings are cut to this many characters (writeUTF takes at most 64 KB). */
    private static final int MAX_STRING_CHARS = 8192;

    private static final byte GROUP_UP = 1;
    private static final byte PROGRESS = 2;
    private static final byte JOB_DONE = 3;
    private static final byte RANK_FAILED = 4;

    private StatusCodec() {
    }

    static void writeGreeting(DataOutputStream out, String token) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeUTF(token);
        out.flush();
    }

    /** Reads a greeting; fails, saying why, unless it is this version's with the token. */
    static void readGreeting(DataInputStream in, String token) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException("not a datampi status connection (magic " + Integer.toHexString(magic) + ")");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException("status channel version " + version + ", expected " + VERSION
                    + " (ranks and launcher of different datampi builds)");
        }
        if (!MessageDigest.isEqual(in.readUTF().getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8))) {
            throw new IOException("wrong token (not this group's ranks)");
        }
    }

    static void write(DataOutputStream out, RankStatus status) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream record = new DataOutputStream(bytes);
        // (JDK 17: no pattern matching in switch.)
        if (status instanceof RankStatus.GroupUp up) {
            record.writeByte(GROUP_UP);
            writeStrings(record, up.hostOfRank());
            writeString(record, up.logDir());
        } else if (status instanceof JobProgress progress) {
            record.writeByte(PROGRESS);
            record.writeInt(progress.oTasksDone());
            record.writeInt(progress.oTasks());
            record.writeInt(progress.aTasksDone());
            record.writeInt(progress.aTasks());
            record.writeInt(progress.stages().size());
            for (JobProgress.Stage stage : progress.stages()) {
                record.writeInt(stage.done());
                record.writeInt(stage.running());
                record.writeInt(stage.tasks());
            }
        } else if (status instanceof RankStatus.JobDone done) {
            record.writeByte(JOB_DONE);
            writeString(record, done.jobId());
        } else if (status instanceof RankStatus.RankFailed failed) {
            record.writeByte(RANK_FAILED);
            record.writeInt(failed.rank());
            writeString(record, failed.host());
            writeString(record, failed.where());
            writeString(record, failed.cause());
            record.writeBoolean(failed.rankLost());
            writeString(record, failed.logPath().orElse(""));
            writeStrings(record, failed.logTail());
        } else {
            throw new IllegalArgumentException("Not a status record: " + status);
        }
        record.flush();
        out.writeInt(bytes.size());
        bytes.writeTo(out);
        out.flush();
    }

    /** The next record; empty at the end of the connection. */
    static Optional<RankStatus> read(DataInputStream in) throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            return Optional.empty();
        }
        if (length <= 0 || length > MAX_RECORD_BYTES) {
            throw new IOException("a status record of " + length + " bytes (at most " + MAX_RECORD_BYTES + ")");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        DataInputStream record = new DataInputStream(new ByteArrayInputStream(bytes));
        byte kind = record.readByte();
        return Optional.of(switch (kind) {
            case GROUP_UP -> new RankStatus.GroupUp(readStrings(record), record.readUTF());
            case PROGRESS -> readProgress(record);
            case JOB_DONE -> new RankStatus.JobDone(record.readUTF());
            case RANK_FAILED -> {
                int rank = record.readInt();
                String host = record.readUTF();
                String where = record.readUTF();
                String cause = record.readUTF();
                boolean rankLost = record.readBoolean();
                String logPath = record.readUTF();
                yield new RankStatus.RankFailed(rank, host, where, cause, rankLost,
                        logPath.isEmpty() ? Optional.empty() : Optional.of(logPath), readStrings(record));
            }
            default -> throw new IOException("a status record of unknown kind " + kind);
        });
    }

    private static JobProgress readProgress(DataInputStream record) throws IOException {
        int oTasksDone = record.readInt();
        int oTasks = record.readInt();
        int aTasksDone = record.readInt();
        int aTasks = record.readInt();
        int count = count(record);
        List<JobProgress.Stage> stages = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            stages.add(new JobProgress.Stage(record.readInt(), record.readInt(), record.readInt()));
        }
        return new JobProgress(oTasksDone, oTasks, aTasksDone, aTasks, stages);
    }

    private static int count(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("a status record with a count of " + count);
        }
        return count;
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        out.writeUTF(value.length() > MAX_STRING_CHARS ? value.substring(0, MAX_STRING_CHARS) + "..." : value);
    }

    private static void writeStrings(DataOutputStream out, List<String> values) throws IOException {
        out.writeInt(values.size());
        for (String value : values) {
            writeString(out, value);
        }
    }

    private static List<String> readStrings(DataInputStream in) throws IOException {
        int count = count(in);
        List<String> values = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            values.add(in.readUTF());
        }
        return values;
    }
}
