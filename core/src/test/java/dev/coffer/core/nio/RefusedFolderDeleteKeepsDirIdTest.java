package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file a sync client delivers into a folder's storage folder after the delete's listing refuses the
 * delete (ENOTEMPTY); the folder stays with its dirid.c9r, which the delete unlinked before the
 * storage folder's rmdir and writes back (before session 39's review it was lost). A second thread
 * plays the sync client, delivering a file the moment dirid.c9r is gone.
 */
class RefusedFolderDeleteKeepsDirIdTest {
    @TempDir
    Path tmp;

    @Test
    void aRefusedDeleteKeepsTheFoldersDirId() throws Exception {
        Path vault = tmp.resolve("v");
        int refused = 0;
        int lost = 0;
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            for (int round = 0; round < 300 && lost == 0; round++) {
                Set<Path> before = TestVaults.storageFolders(vault);
                Path folder = Files.createDirectory(fs.getPath("/f" + round));
                Set<Path> made = TestVaults.storageFolders(vault);
                made.removeAll(before);
                Path storage = made.iterator().next();
                Path dirId = storage.resolve("dirid.c9r");
                AtomicBoolean stop = new AtomicBoolean();
                Thread sync = new Thread(() -> {
                    while (!stop.get()) {
                        if (!Files.exists(dirId)) {
                            try {
                                Files.writeString(storage.resolve("late.tmp"), "delivered");
                            } catch (IOException e) {
                                // the storage folder is gone: too late
                            }
                            return;
                        }
                    }
                });
                sync.start();
                try {
                    Files.delete(folder);
                } catch (DirectoryNotEmptyException e) {
                    refused++;
                    assertThat(Files.isDirectory(folder)).as("a refused delete keeps the folder").isTrue();
                    if (!Files.exists(dirId)) {
                        lost++;
                    }
                } finally {
                    stop.set(true);
                    sync.join();
                }
            }
        }
        assertThat(refused).as("deletes refused by the delivered file (the race this test is about)").isPositive();
        assertThat(lost).as("folders whose delete was refused but lost their dirid.c9r (of %d refused)", refused).isZero();
    }
}
