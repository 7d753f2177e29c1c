package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.names.LongNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long-named file deleted before any listing resolved the sync-conflict copy in its entry folder
 * ({@code contents (1).c9r}): the entry folder must keep its {@code name.c9s}, so that the next
 * listing shows the copy as {@code <N> (Conflict 1)}; without the name file nothing can name it.
 */
class DeleteWithConflictCopyInsideTest {
    private static final String PASS = "pass phrase";

    @TempDir
    Path tmp;

    @Test
    void theConflictCopyIsListedAfterTheDelete() throws IOException {
        Path vault = tmp.resolve("v");
        String mine = "mine ".repeat(40) + ".txt";
        String theirs = "theirs ".repeat(30) + ".txt";
        try (CofferFileSystem fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Files.writeString(fs.getPath("/" + mine), "mine");
            Files.writeString(fs.getPath("/" + theirs), "the other device's version");
        }
        // A sync client's conflict copy: the other version, decorated, inside the entry folder of mine.
        List<Path> folders = entryFoldersByNameLength(vault); // mine's name is the shorter
        Path mineFolder = folders.get(0);
        Path theirsFolder = folders.get(1);
        Files.move(theirsFolder.resolve("contents.c9r"), mineFolder.resolve("contents (1).c9r"));
        Files.delete(theirsFolder.resolve(LongNames.NAME_FILE));
        Files.delete(theirsFolder);

        try (CofferFileSystem fs = CofferFileSystems.open(vault, PASS.toCharArray(), false)) {
            Files.delete(fs.getPath("/" + mine)); // no listing before: the copy is still unresolved

            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString()).collect(Collectors.toList()))
                        .containsExactly(mine + " (Conflict 1)");
            }
            assertThat(Files.readString(fs.getPath("/" + mine + " (Conflict 1)")))
                    .isEqualTo("the other device's version");
        }
    }

    /** The two root entry folders ({@code <s>.c9s}), the one with the shorter c9r name first. */
    private static List<Path> entryFoldersByNameLength(Path vault) throws IOException {
        List<Path> folders;
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            folders = s.filter(p -> p.getFileName().toString().endsWith(LongNames.C9S) && Files.isDirectory(p))
                    .collect(Collectors.toList());
        }
        assertThat(folders).hasSize(2);
        folders.sort((a, b) -> Long.compare(size(a.resolve(LongNames.NAME_FILE)), size(b.resolve(LongNames.NAME_FILE))));
        return folders;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
