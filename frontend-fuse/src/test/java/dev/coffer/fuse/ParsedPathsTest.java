package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kernel paths parsed once are served again as the same path; a path never parsed is not invented. */
class ParsedPathsTest {
    @Test
    void aPathPutIsFoundByAnEqualString() {
        ParsedPaths parsed = new ParsedPaths();
        Path p = Path.of("/tmp/a/b");
        parsed.put("/a/b", p);
        assertThat(parsed.get(new String("/a/b".toCharArray()))).isSameAs(p);
        assertThat(parsed.get("/a/c")).isNull();
        assertThat(parsed.get("/a/b/")).isNull();
    }

    @Test
    void aSlotHoldsTheLastPathPutInIt() {
        ParsedPaths parsed = new ParsedPaths();
        int count = ParsedPaths.SLOTS * 4;
        for (int i = 0; i < count; i++) {
            parsed.put("/f" + i, Path.of("/x/f" + i));
        }
        int found = 0;
        for (int i = 0; i < count; i++) {
            Path p = parsed.get("/f" + i);
            if (p != null) {
                assertThat(p).isEqualTo(Path.of("/x/f" + i)); // never another name's path
                found++;
            }
        }
        assertThat(found).isPositive().isLessThanOrEqualTo(ParsedPaths.SLOTS);
    }

    @Test
    void backingServesARepeatedPathWithoutParsingItAgain(@TempDir Path root) throws Exception {
        Backing backing = new Backing(root, 0, 0);
        Path first = backing.resolve("/folder/file.txt");
        assertThat(first).isEqualTo(root.resolve("folder/file.txt"));
        assertThat(backing.resolve(new String("/folder/file.txt".toCharArray()))).isSameAs(first);
        assertThat(backing.resolve("/folder/other.txt")).isEqualTo(root.resolve("folder/other.txt"));
        assertThat(backing.resolve("/")).isEqualTo(root);
    }
}
