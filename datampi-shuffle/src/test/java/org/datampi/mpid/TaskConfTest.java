package org.datampi.mpid;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.apache.hadoop.io.Text;
import org.datampi.shuffle.ShuffleSettings;
import org.junit.jupiter.api.Test;

class TaskConfTest {
    @Test
    void jobSettingsAreRejectedWithWhereToPutThem() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> TaskConf.parse(Map.of(ShuffleSettings.SEND_QUEUE, "6")));
        assertTrue(error.getMessage().contains("-D mpid.sendqueue"), error.getMessage());
    }

    @Test
    void unknownMpidKeysAreRejected() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> TaskConf.parse(Map.of("mpid.partitioner", "x")));
        assertTrue(error.getMessage().contains("mpid.partitioner"), error.getMessage());
    }

    @Test
    void aNonWritableKeyClassNamesTheSetting() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> TaskConf.parse(Map.of(MpidConf.KEY_CLASS, String.class.getName())));
        assertTrue(error.getMessage().contains(MpidConf.KEY_CLASS), error.getMessage());
    }

    @Test
    void sendingTheWrongTypeNamesTheSettingAndTheType() {
        TaskConf conf = TaskConf.parse(Map.of(MpidConf.KEY_CLASS, Text.class.getName()));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> conf.keySerde().serialize("a string"));
        assertTrue(error.getMessage().contains(MpidConf.KEY_CLASS) && error.getMessage().contains("java.lang.String"),
                error.getMessage());
    }
}
