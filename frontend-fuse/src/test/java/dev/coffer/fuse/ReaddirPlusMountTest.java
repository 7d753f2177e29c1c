package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel asks for READDIRPLUS ({@link ReaddirPlus}), through a real mount of a real vault:
 * listings come with each entry's type and attributes, every kind of entry (file, folder, link,
 * a name of 255 bytes, a dot name) lists right, and tools that list and then stat, open or delete
 * what they listed (find, ls -l, cat, rm -rf) see every entry as it is. The trees are made through
 * the vault, not the mount, so that the kernel knows none of the names before it lists them.
 */
class ReaddirPlusMountTest {
    private static final String LONG = "L".repeat(251) + ".txt";

    @TempDir
    Path tmp;
    private VaultMount vm;

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        if (vm != null) {
            vm.close();
        }
    }

    @Test
    void aListingCarriesEveryKindOfEntryWithItsTypeAndSize() throws Exception {
        vm = new VaultMount(tmp);
        Path dir = Files.createDirectory(vm.fs.getPath("/kinds"));
        Files.writeString(dir.resolve("plain.txt"), "twelve bytes");
        Files.writeString(dir.resolve(LONG), "long name");
        Files.writeString(dir.resolve(".hidden"), "dot");
        Files.createDirectory(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/inner.txt"), "inner");
        Files.createSymbolicLink(dir.resolve("link"), vm.fs.getPath("plain.txt"));
        Files.writeString(dir.resolve("\u00e9t\u00e9 \u2603.txt"), "unicode");

        String found = Shell.ok(vm.mnt, "find", "kinds", "-mindepth", "1", "-printf", "%P %y\\n");

        assertThat(lines(found)).containsExactlyInAnyOrder("plain.txt f", LONG + " f", ".hidden f", "sub d", "sub/inner.txt f",
                "link l", "\u00e9t\u00e9 \u2603.txt f");
        assertThat(vm.mount.readdirPlusAnswered()).as("READDIRPLUS requests").isPositive();
        String sizes = Shell.ok(vm.mnt, "find", "kinds", "-type", "f", "-printf", "%P %s\\n");
        assertThat(lines(sizes)).containsExactlyInAnyOrder("plain.txt 12", LONG + " 9", ".hidden 3", "sub/inner.txt 5",
                "\u00e9t\u00e9 \u2603.txt 7");
        assertThat(Shell.ok(vm.mnt, "cat", "kinds/link")).isEqualTo("twelve bytes");
    }

    @Test
    void manyEntriesListOverSeveralRequestsAndEachIsSeen() throws Exception {
        vm = new VaultMount(tmp);
        Path dir = Files.createDirectory(vm.fs.getPath("/many"));
        Set<String> expected = new TreeSet<>();
        for (int i = 0; i < 600; i++) {
            String name = "file " + i + " " + "x".repeat(i % 60) + ".txt";
            Files.writeString(dir.resolve(name), "content " + i);
            expected.add(name + " " + ("content " + i).length());
        }

        String listed = Shell.ok(vm.mnt, "find", "many", "-type", "f", "-printf", "%f %s\\n");

        assertThat(new TreeSet<>(lines(listed))).isEqualTo(expected);
        assertThat(Shell.ok(vm.mnt, "sh", "-c", "ls -l many | wc -l").trim()).isEqualTo("601"); // "total" and 600 files
        assertThat(Shell.ok(vm.mnt, "cat", "many/file 599 " + "x".repeat(599 % 60) + ".txt")).isEqualTo("content 599");
    }

    @Test
    void namesTheKernelWasJustGivenAreNotLookedUpAgainWhenListed() throws Exception {
        vm = new VaultMount(tmp);
        Path dir = Files.createDirectory(vm.mnt.resolve("written"));
        for (int i = 0; i < 20; i++) {
            Files.writeString(dir.resolve("f" + i), "x"); // through the mount: the kernel holds each entry
        }
        long before = vm.mount.readdirPlusLookups();

        assertThat(lines(Shell.ok(vm.mnt, "ls", "-l", "written"))).hasSize(21);

        assertThat(vm.mount.readdirPlusAnswered()).isPositive();
        assertThat(vm.mount.readdirPlusLookups() - before).as("lookups for names the kernel holds").isZero();
    }

    @Test
    void aListedTreeIsRemovedWhole() throws Exception {
        vm = new VaultMount(tmp);
        for (int d = 0; d < 5; d++) {
            Path sub = Files.createDirectories(vm.fs.getPath("/tree/d" + d + "/deeper"));
            for (int f = 0; f < 40; f++) {
                Files.writeString(sub.resolve("f" + f), "x");
                Files.writeString(sub.getParent().resolve("g" + f), "y");
            }
        }
        assertThat(lines(Shell.ok(vm.mnt, "find", "tree", "-type", "f"))).hasSize(400);

        Shell.ok(vm.mnt, "rm", "-rf", "tree");

        assertThat(Files.exists(vm.fs.getPath("/tree"))).isFalse();
        assertThat(Shell.ok(vm.mnt, "ls", "-A")).isEmpty();
    }

    private static java.util.List<String> lines(String output) {
        return Arrays.stream(output.split("\n")).filter(l -> !l.isEmpty()).collect(Collectors.toList());
    }
}
