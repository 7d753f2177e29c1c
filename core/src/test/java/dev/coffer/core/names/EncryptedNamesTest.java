package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EncryptedNamesTest {
    private final EncryptedNames names = new EncryptedNames();

    /** With more names than slots, many share a slot: a get answers the right name or nothing. */
    @Test
    void aNameIsAnsweredWithItsOwnEncryptionOrNotAtAll() {
        int count = 4 * EncryptedNames.SLOTS;
        for (int i = 0; i < count; i++) {
            names.put("dir" + (i % 3), "name" + i, "enc" + i);
        }

        int answered = 0;
        for (int i = 0; i < count; i++) {
            String got = names.get("dir" + (i % 3), "name" + i);
            assertThat(got).isIn(null, "enc" + i);
            answered += got == null ? 0 : 1;
            assertThat(names.get("dir" + ((i + 1) % 3), "name" + i)).isNull(); // same name, another folder
            String name = names.nameOf("dir" + (i % 3), "enc" + i);
            assertThat(name).isIn(null, "name" + i);
            assertThat(names.nameOf("dir" + ((i + 1) % 3), "enc" + i)).isNull();
        }
        assertThat(answered).isPositive().isLessThanOrEqualTo(EncryptedNames.SLOTS);
    }

    @Test
    void theLatestNameInASlotIsAnsweredAndClearForgetsAll() {
        names.put("d", "a.txt", "A");

        assertThat(names.get("d", "a.txt")).isEqualTo("A");
        assertThat(names.get("d", "b.txt")).isNull();
        assertThat(names.nameOf("d", "A")).isEqualTo("a.txt");
        assertThat(names.nameOf("d", "a.txt")).isNull(); // a name is not an encryption

        names.clear();

        assertThat(names.get("d", "a.txt")).isNull();
        assertThat(names.nameOf("d", "A")).isNull();
    }

    /** Two names of a folder that share a pair of slots are both kept; a third pushes the oldest out. */
    @Test
    void namesSharingAPairAreBothKeptUntilAThirdComes() {
        List<String> same = new ArrayList<>();
        for (int i = 0; same.size() < 3; i++) {
            if (EncryptedNames.pair("d", "n" + i) == EncryptedNames.pair("d", "n0")) {
                same.add("n" + i);
            }
        }
        names.put("d", same.get(0), "E0");
        names.put("d", same.get(1), "E1");
        names.put("d", same.get(1), "E1"); // again: the pair's other name stays

        assertThat(names.get("d", same.get(0))).isEqualTo("E0");
        assertThat(names.get("d", same.get(1))).isEqualTo("E1");

        names.put("d", same.get(2), "E2");

        assertThat(names.get("d", same.get(0))).isNull();
        assertThat(names.get("d", same.get(1))).isEqualTo("E1");
        assertThat(names.get("d", same.get(2))).isEqualTo("E2");
    }
}
