package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.coffer.core.testing.TmpfsMount;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store probe at opening ({@link StoreProbe}, {@link CofferFileSystem#storeLimits()}): an
 * ordinary folder has no limits and keeps no probe files; a read-only tmpfs opens read-only with a
 * clear warning; a case-insensitive file system (Jimfs configured like macOS) is reported. The
 * name-length limit is tested through a real name-limited FUSE mount in frontend-fuse
 * ({@code StoreLimitsMountTest}).
 */
class StoreLimitsTest {
    @TempDir
    Path tmp;

    @Test
    void anOrdinaryFolderHasNoLimitsAndKeepsNoProbeFiles() throws IOException {
        Path vault = tmp.resolve("vault");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "p".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            StoreLimits limits = fs.storeLimits();
            assertThat(limits.probed()).isTrue();
            assertThat(limits.readOnly()).isFalse();
            assertThat(limits.caseInsensitive()).isFalse();
            assertThat(limits.nameLengthLimit()).isEmpty();
            assertThat(limits.neededNameLength()).isEqualTo(220);
            assertThat(limits.warnings()).isEmpty();
            assertThat(fs.isReadOnly()).isFalse();
        }
        try (Stream<Path> s = Files.walk(vault)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(AtomicFiles.TEMP_PREFIX));
        }
    }

    @Test
    void aReadOnlyOpeningWritesNothingAndProbesNothing() throws IOException {
        Path vault = tmp.resolve("vault");
        CofferFileSystems.create(vault, "p".toCharArray(), VaultOnTempDirContractTest.FAST).close();
        try (CofferFileSystem fs = CofferFileSystems.open(vault, "p".toCharArray(), true)) {
            assertThat(fs.storeLimits().probed()).isFalse();
            assertThat(fs.storeLimits().readOnly()).isFalse();
            assertThat(fs.isReadOnly()).isTrue();
        }
    }

    @Test
    void aReadOnlyStoreOpensReadOnlyWithAClearMessage() throws Exception {
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("ro"), 8)) {
            Path vault = tmpfs.dir().resolve("vault");
            try (CofferFileSystem fs = CofferFileSystems.create(vault, "p".toCharArray(), VaultOnTempDirContractTest.FAST)) {
                Files.writeString(fs.getPath("/kept.txt"), "kept");
            }
            tmpfs.remountReadOnly();
            try (CofferFileSystem fs = CofferFileSystems.open(vault, "p".toCharArray(), false)) {
                assertThat(fs.isReadOnly()).isTrue();
                assertThat(fs.storeLimits().readOnly()).isTrue();
                assertThat(fs.storeLimits().warnings()).containsExactly(
                        "the vault folder cannot be written (the file system is mounted read-only): opened read-only");
                assertThat(Files.readString(fs.getPath("/kept.txt"))).isEqualTo("kept");
                assertThatThrownBy(() -> Files.writeString(fs.getPath("/new.txt"), "x")).isInstanceOf(ReadOnlyFileSystemException.class);
                assertThat(fs.getFileStores().iterator().next().isReadOnly()).isTrue();
            }
            tmpfs.remountWritable();
        }
    }

    @Test
    void aCaseInsensitiveStoreIsReported() throws IOException {
        try (FileSystem insensitive = Jimfs.newFileSystem(Configuration.osX())) {
            Path vault = insensitive.getPath("/vault");
            try (CofferFileSystem fs = CofferFileSystems.create(vault, "p".toCharArray(), VaultOnTempDirContractTest.FAST)) {
                assertThat(fs.storeLimits().caseInsensitive()).isTrue();
                assertThat(fs.storeLimits().warnings()).singleElement().asString().contains("ignores the case of names");
                Files.writeString(fs.getPath("/works anyway.txt"), "yes");
                assertThat(Files.readString(fs.getPath("/works anyway.txt"))).isEqualTo("yes");
            }
            try (Stream<Path> s = Files.walk(vault)) {
                assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(AtomicFiles.TEMP_PREFIX));
            }
        }
    }
}
