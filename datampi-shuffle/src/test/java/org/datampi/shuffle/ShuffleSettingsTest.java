package org.datampi.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.datampi.shuffle.codec.BlockCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ShuffleSettingsTest {
    @Test
    void defaultsAreThePapersBestSettings() {
        ShuffleSettings settings = ShuffleSettings.from(key -> null, Path.of("/tmp"));
        assertEquals(0.4, settings.memUsedPercent());
        assertEquals(6, settings.sendQueue());
        assertEquals(BlockCodec.NONE, settings.codec());
        assertEquals(3, settings.localityWaitSeconds());
    }

    @Test
    void valuesAreRead() {
        Map<String, String> values = Map.of(ShuffleSettings.MEM_USED_PERCENT, "0.25", ShuffleSettings.SEND_QUEUE, "8",
                ShuffleSettings.COMPRESSION, "LZ4", ShuffleSettings.LOCAL_DIR, "/data/spill",
                ShuffleSettings.LOCALITY_WAIT, "0");
        ShuffleSettings settings = ShuffleSettings.from(values::get, Path.of("/tmp"));
        assertEquals(0.25, settings.memUsedPercent());
        assertEquals(8, settings.sendQueue());
        assertEquals(BlockCodec.LZ4, settings.codec());
        assertEquals(Path.of("/data/spill"), settings.localDir());
        assertEquals(0, settings.localityWaitSeconds());
    }

    @ParameterizedTest
    @CsvSource({
        "mpid.memusedpercent, 1.5, (0, 1]",
        "mpid.memusedpercent, lots, (0, 1]",
        "mpid.sendqueue, 0, >= 1",
        "mpid.block.size, 10, between",
        "mpid.compression, gzip, none, lz4, zstd",
        "mpid.locality.wait, -1, seconds >= 0"})
    void aBadValueNamesTheKeyAndWhatIsAccepted(String key, String value, String accepted) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> ShuffleSettings.from(Map.of(key, value)::get, Path.of("/tmp")));
        assertTrue(error.getMessage().contains(key), error.getMessage());
        assertTrue(error.getMessage().contains("'" + value + "'"), error.getMessage());
        assertTrue(error.getMessage().contains(accepted.trim()), error.getMessage());
    }
}
