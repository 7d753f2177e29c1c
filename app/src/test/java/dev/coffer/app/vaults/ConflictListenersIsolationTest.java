package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.ConflictCopy;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One app listener of conflict copies that throws keeps no other from hearing of the copy. */
class ConflictListenersIsolationTest {
    @TempDir
    Path tmp;

    @Test
    void aThrowingListenerDoesNotSilenceTheNextOne() throws Exception {
        TestVaults t = new TestVaults(tmp);
        ManagedVault v = t.create("Taxes").vault();
        List<ConflictCopy> heard = new CopyOnWriteArrayList<>();
        t.service.addConflictCopyListener((vault, copy) -> {
            throw new IllegalStateException("Toolkit not initialized");
        });
        t.service.addConflictCopyListener((vault, copy) -> heard.add(copy));
        t.service.unlock(v, TestVaults.PASSPHRASE.toCharArray());
        TestVaults.orphanedWriter(t.fuse.drives.get(0).cleartextRoot, v.settings().folderPath(), "/a.txt", "x").close();
        assertThat(heard).hasSize(1);
    }
}
