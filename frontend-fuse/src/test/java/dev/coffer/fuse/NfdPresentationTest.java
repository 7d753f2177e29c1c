package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mount that presents names in NFD (what macOS Finder expects) over a real vault, which stores
 * NFC: listings show NFD, lookups in either form find the entry, and the vault keeps NFC.
 */
class NfdPresentationTest {
    private static final String NFC = Normalizer.normalize("Crème brûlée.txt", Normalizer.Form.NFC);
    private static final String NFD = Normalizer.normalize(NFC, Normalizer.Form.NFD);

    @TempDir
    Path tmp;
    private VaultMount vm;

    @BeforeEach
    void mount() throws IOException {
        vm = new VaultMount(tmp, MountOptions.defaults(false).withNames(NameForm.NFD),
                (root, uid, gid) -> new FuseAdapter(root, uid, gid, NameForm.NFD));
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        vm.close();
    }

    @Test
    void listingsShowNfdAndBothFormsFindTheFile() throws IOException {
        assertThat(NFD).isNotEqualTo(NFC);
        Files.writeString(vm.mnt.resolve(NFC), "dessert");
        Files.createDirectory(vm.mnt.resolve("Ordner ä"));

        assertThat(names(vm.mnt)).containsExactlyInAnyOrder(NFD,
                Normalizer.normalize("Ordner ä", Normalizer.Form.NFD));
        assertThat(Files.readString(vm.mnt.resolve(NFD))).isEqualTo("dessert");
        assertThat(Files.readString(vm.mnt.resolve(NFC))).isEqualTo("dessert");

        Files.writeString(vm.mnt.resolve(NFD), "tart");
        assertThat(names(vm.mnt)).hasSize(2);
        assertThat(Files.readString(vm.mnt.resolve(NFC))).isEqualTo("tart");
    }

    @Test
    void platformDefaultIsNfdOnlyOnMacOs() {
        assertThat(NameForm.forOs("Mac OS X")).isEqualTo(NameForm.NFD);
        assertThat(NameForm.forOs("Linux")).isEqualTo(NameForm.NFC);
        assertThat(NameForm.forOs("Windows 11")).isEqualTo(NameForm.NFC);
        assertThat(NameForm.NFC.present(NFD)).isEqualTo(NFD);
        assertThat(NameForm.NFD.present(NFC)).isEqualTo(NFD);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }
}
