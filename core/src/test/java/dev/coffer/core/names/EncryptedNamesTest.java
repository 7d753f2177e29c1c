package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

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
}
