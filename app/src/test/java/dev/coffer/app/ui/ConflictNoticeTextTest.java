package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.core.nio.ConflictCopy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The conflict banner's text: names cannot reshape it, and the count of more is worded in both languages. */
class ConflictNoticeTextTest {
    @TempDir
    Path tmp;
    private TestVaults t;
    private final Messages en = Messages.of(Locale.ENGLISH);

    @BeforeEach
    void setUp() throws Exception {
        t = new TestVaults(tmp);
    }

    /** A name with a line break forges a line of the banner; an RLO reverses the rest of the sentence. */
    @Test
    void oddNamesCannotReshapeTheBanner() throws Exception {
        MainViewModel m = new MainViewModel(t.service, new SyncBackground(), en, u -> { }, Runnable::run);
        ManagedVault v = t.create("Taxes").vault();
        String forged = m.conflictText(v, ConflictCopy.notKept("/a\nThe same happened to 99 more files.txt"));
        assertThat(forged).as("no line break from a name").doesNotContain("\n");
        String rlo = m.conflictText(v, ConflictCopy.kept("/invoice\u202Efdp.exe", "/invoice\u202Efdp.exe (Conflict 1)"));
        assertThat(rlo).as("a bidi override in a name is isolated or shown").doesNotContain("\u202E");
    }

    /** Several copies at once: the count's plural forms in both languages. */
    @Test
    void theCountOfMoreIsWordedInBothLanguages() throws Exception {
        for (Locale l : List.of(Locale.ENGLISH, Locale.GERMAN)) {
            Messages msgs = Messages.of(l);
            MainViewModel m = new MainViewModel(t.service, new SyncBackground(), msgs, u -> { }, Runnable::run);
            ManagedVault v = t.create("Taxes" + l).vault();
            t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
            Path root = t.fuse.drives.get(t.fuse.drives.size() - 1).cleartextRoot;
            for (int i = 0; i < 3; i++) {
                TestVaults.orphanedWriter(root, v.settings().folderPath(), "/f" + i + ".txt", "x").close();
            }
            assertThat(m.conflictNotice().get()).doesNotContain("{").doesNotContain("conflict.");
            assertThat(m.conflictNotice().get()).contains(l == Locale.ENGLISH ? "2 more files" : "2 weiteren Dateien");
            t.service.lock(v, true);
        }
    }
}
