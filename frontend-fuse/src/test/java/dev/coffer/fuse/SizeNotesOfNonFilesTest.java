package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.struct.FileStat;

/** The adapter notes sizes only for files: a name that is a folder now has its file's notes dropped. */
class SizeNotesOfNonFilesTest {
    @TempDir
    Path root;

    @Test
    void aFileThatBecameAFolderHasItsNoteDroppedSoTheFoldersRenameMovesItsFilesNotes() throws Exception {
        Files.write(root.resolve("x"), new byte[100]);
        FuseAdapter adapter = new FuseAdapter(root, 0, 0);
        FileStat stat = new FileStat(Runtime.getSystemRuntime());
        assertThat(adapter.getattr("/x", stat)).isZero();
        // A sync client makes the name a folder holding a file.
        Files.delete(root.resolve("x"));
        Files.createDirectory(root.resolve("x"));
        Files.write(root.resolve("x/g"), new byte[500]);
        assertThat(adapter.getattr("/x", stat)).isZero();
        assertThat(adapter.getattr("/x/g", stat)).isZero();
        assertThat(adapter.rename("/x", "/y")).isZero();
        assertThat(adapter.kernelSizes().verdict("/y/g", 50)).as("the folder's file's note moved with it")
                .isEqualTo(KernelSizes.Verdict.SHRUNK);
    }
}
