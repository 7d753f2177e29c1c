package dev.coffer.core.nio;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/** Copies the read-only shared test vaults to a temp folder: opening may resolve conflicts on disk. */
final class TestVaults {
    private TestVaults() {}

    static Path testdata() {
        String p = System.getProperty("coffer.testdata");
        return p != null ? Path.of(p) : Path.of("../../shared/testdata");
    }

    static Path copy(String name, Path tmp) throws IOException {
        Path source = testdata().resolve(name);
        Path target = tmp.resolve(name);
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path t = target.resolve(source.relativize(dir).toString());
                Files.createDirectories(t);
                t.toFile().setWritable(true);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path t = target.resolve(source.relativize(file).toString());
                Files.copy(file, t, StandardCopyOption.REPLACE_EXISTING);
                t.toFile().setWritable(true);
                return FileVisitResult.CONTINUE;
            }
        });
        return target;
    }
}
