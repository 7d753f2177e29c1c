package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names that reach the mount as bytes: UTF-8 names stay apart, names whose bytes are not UTF-8 are
 * refused (EILSEQ) instead of becoming one file, and a JVM that would not decode UTF-8 does not mount.
 */
class KernelNamesTest {
    @TempDir
    Path tmp;

    @Test
    void namesThatAreNotUtf8AreRefusedAndLeaveOtherFilesAlone() throws Exception {
        VaultMount vm = new VaultMount(tmp);
        try {
            Files.writeString(vm.mnt.resolve("\u00e9.txt"), "e acute");
            Files.writeString(vm.mnt.resolve("\u00fc.txt"), "u umlaut");
            // Latin-1 names (an old archive's): caf\xe9 and caf\xe8 would both decode to caf\uFFFD.
            String script = String.join("\n",
                    "import errno, os, sys",
                    "m = os.fsencode(sys.argv[1])",
                    "for raw in (b'caf\\xe9.txt', b'caf\\xe8.txt'):",
                    "    try:",
                    "        with open(os.path.join(m, raw), 'wb') as f: f.write(raw)",
                    "        print('created')",
                    "    except OSError as e:",
                    "        print(errno.errorcode[e.errno])",
                    "try:",
                    "    os.symlink(b'caf\\xe9.txt', os.path.join(m, b'link'))",
                    "    print('linked')",
                    "except OSError as e:",
                    "    print(errno.errorcode[e.errno])");
            Path py = tmp.resolve("latin1.py");
            Files.writeString(py, script);
            String out = Shell.ok(tmp, "python3", py.toString(), vm.mnt.toString());

            assertThat(out.lines().toList()).containsExactly("EILSEQ", "EILSEQ", "EILSEQ");
            assertThat(names(vm.mnt)).containsExactlyInAnyOrder("\u00e9.txt", "\u00fc.txt");
            assertThat(Files.readString(vm.mnt.resolve("\u00e9.txt"))).isEqualTo("e acute");
            assertThat(Files.readString(vm.mnt.resolve("\u00fc.txt"))).isEqualTo("u umlaut");
        } finally {
            vm.close();
        }
    }

    @Test
    void aMountNeedsUtf8AsTheDefaultCharset() throws IOException {
        KernelNames.requireUtf8(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> KernelNames.requireUtf8(StandardCharsets.US_ASCII))
                .isInstanceOf(IOException.class).hasMessageContaining("US-ASCII").hasMessageContaining("LANG=C.UTF-8");
    }

    @Test
    void aStringThatDidNotDecodeIsRefusedWithoutItsName() {
        assertThatThrownBy(() -> KernelNames.requireDecoded("/secret caf\uFFFD.txt"))
                .isInstanceOf(FileSystemException.class).hasMessage(KernelNames.UNDECODABLE);
        assertThat(Errno.of(new FileSystemException(null, null, KernelNames.UNDECODABLE)))
                .isEqualTo(ru.serce.jnrfuse.ErrorCodes.EILSEQ());
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }
}
