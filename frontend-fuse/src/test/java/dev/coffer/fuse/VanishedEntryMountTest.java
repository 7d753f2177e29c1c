package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file whose ciphertext a sync client deleted while the kernel still holds its name (for up to
 * {@link MountOptions#CACHE_SECONDS} s): the kernel opens the name it knows instead of looking it
 * up, and the open finds nothing. ESTALE makes the kernel look the name up again and retry the
 * open once, so that a creating open makes the file anew and a plain one fails with ENOENT,
 * instead of a creating open failing with ENOENT on a name that does not exist.
 */
class VanishedEntryMountTest {
    @TempDir
    Path tmp;
    private VaultMount vm;

    @BeforeEach
    void mount() throws IOException {
        vm = new VaultMount(tmp);
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        vm.close();
    }

    /** Creates {@code name} through the mount, has the kernel note it, then deletes its ciphertext underneath. */
    private Path vanished(String name) throws Exception {
        Path file = vm.mnt.resolve(name);
        Files.writeString(file, "old");
        assertThat(Files.readString(file)).isEqualTo("old"); // the kernel now holds the name and its attributes
        List<Path> ciphertext;
        try (Stream<Path> s = Files.walk(vm.vault.resolve("d"))) {
            ciphertext = s.filter(p -> p.getFileName().toString().endsWith(".c9r"))
                    .filter(p -> !p.getFileName().toString().equals("dirid.c9r")).filter(Files::isRegularFile).toList();
        }
        assertThat(ciphertext).as("the one file's ciphertext").hasSize(1);
        Files.delete(ciphertext.get(0)); // as a sync client does, unseen by the mount
        return file;
    }

    @Test
    void aCreatingOpenOfANameWhoseFileVanishedMakesItAnew() throws Exception {
        Path file = vanished("note.txt");
        Shell.sh(vm.mnt, "echo x > note.txt");
        assertThat(Files.readString(file)).isEqualTo("x\n");
        assertThat(Files.readString(vm.fs.getPath("/note.txt"))).as("in the vault").isEqualTo("x\n");
    }

    @Test
    void aPlainOpenOfANameWhoseFileVanishedIsEnoent() throws Exception {
        vanished("note.txt");
        Shell.Result r = Shell.run(vm.mnt, "cat", "note.txt");
        assertThat(r.exit()).isNotZero();
        assertThat(r.output()).contains("No such file or directory");
    }
}
