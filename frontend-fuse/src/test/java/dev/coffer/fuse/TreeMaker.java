package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

/** Test helper: a plain folder tree with every kind of entry the tools must carry into the vault. */
final class TreeMaker {
    private TreeMaker() {}

    /** Files of awkward sizes, nested and empty folders, symlinks, long and non-ASCII names, modes and old times. */
    static Path make(Path dir) throws IOException {
        Random rnd = new Random(42);
        Files.createDirectories(dir.resolve("empty"));
        Files.createDirectories(dir.resolve("a/b/c"));
        int[] sizes = {0, 1, 4095, 4096, 4097, 32 * 1024 + 1, 131_072, 1_000_003};
        for (int i = 0; i < sizes.length; i++) {
            byte[] data = new byte[sizes[i]];
            rnd.nextBytes(data);
            Files.write(dir.resolve(i % 2 == 0 ? "a" : "a/b/c").resolve("file" + i + ".bin"), data);
        }
        Files.writeString(dir.resolve("Café – Ünïcödé ✓.txt"), "names in NFC");
        Files.writeString(dir.resolve("n".repeat(200) + ".txt"), "a long name");
        Files.writeString(dir.resolve("a/b/script.sh"), "#!/bin/sh\necho hi\n");
        Files.setPosixFilePermissions(dir.resolve("a/b/script.sh"), PosixFilePermissions.fromString("rwxr-x---"));
        Files.setPosixFilePermissions(dir.resolve("a/file0.bin"), PosixFilePermissions.fromString("r--------"));
        Files.createSymbolicLink(dir.resolve("link-to-file"), Path.of("a/file2.bin"));
        Files.createSymbolicLink(dir.resolve("a/link-up"), Path.of("../empty"));
        Files.createSymbolicLink(dir.resolve("dangling"), Path.of("does/not/exist"));
        Files.setLastModifiedTime(dir.resolve("a/file4.bin"), FileTime.fromMillis(1_000_000_000_000L));
        return dir;
    }
}
