package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessUmaskTest {
    @TempDir
    Path tmp;

    @Test
    void theUmaskLineOfAStatusFileIsRead() throws IOException {
        Path status = Files.writeString(tmp.resolve("status"), "Name:\tjava\nUmask:\t0027\nState:\tS (sleeping)\n");
        assertThat(ProcessUmask.parse(status)).isEqualTo(027);
    }

    @Test
    void withoutAReadableUmaskEveryBitMayBeRemoved() throws IOException {
        assertThat(ProcessUmask.parse(tmp.resolve("absent"))).isEqualTo(ProcessUmask.UNKNOWN);
        assertThat(ProcessUmask.parse(Files.writeString(tmp.resolve("old kernel"), "Name:\tjava\nState:\tS\n")))
                .isEqualTo(ProcessUmask.UNKNOWN);
        assertThat(ProcessUmask.parse(Files.writeString(tmp.resolve("garbled"), "Umask:\t00x2\n"))).isEqualTo(ProcessUmask.UNKNOWN);
    }

    /** This JVM's own (Linux): what a file it creates with mode 0777 loses. */
    @Test
    void thisProcesssUmaskIsWhatItsNewFilesLose() throws IOException {
        Path f = Files.createFile(tmp.resolve("f"), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(AttributeOps.permissions(0777)));
        int kept = StatFiller.mode(Files.getPosixFilePermissions(f));
        assertThat(ProcessUmask.current()).isEqualTo(0777 & ~kept);
    }
}
