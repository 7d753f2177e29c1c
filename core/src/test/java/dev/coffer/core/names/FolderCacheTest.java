package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The folder cache's tree: lookups by component, subtree invalidation, the generation guard and the bound. */
class FolderCacheTest {
    private static final CiphertextDirectory ROOT = new CiphertextDirectory("", Path.of("/d/root"), Set.of());

    private static CiphertextDirectory dir(String id) {
        return new CiphertextDirectory(id, Path.of("/d/" + id), Set.of());
    }

    /** Caches a/b/c (and a/x) below the root. */
    private static FolderCache abc() {
        FolderCache cache = new FolderCache(ROOT);
        long g = cache.generation();
        FolderCache.Node a = cache.put(cache.deepest(List.of()).node(), "a", dir("A"), g);
        FolderCache.Node b = cache.put(a, "b", dir("B"), g);
        cache.put(b, "c", dir("C"), g);
        cache.put(a, "x", dir("X"), g);
        return cache;
    }

    @Test
    void findsTheDeepestCachedFolderOnAPath() {
        FolderCache cache = abc();
        assertThat(cache.size()).isEqualTo(4);
        FolderCache.Deepest d = cache.deepest(List.of("a", "b", "c"));
        assertThat(d.depth()).isEqualTo(3);
        assertThat(d.dir().dirId()).isEqualTo("C");
        FolderCache.Deepest partial = cache.deepest(List.of("a", "b", "z", "c"));
        assertThat(partial.depth()).isEqualTo(2);
        assertThat(partial.dir().dirId()).isEqualTo("B");
        assertThat(cache.deepest(List.of("q")).dir()).isSameAs(ROOT);
    }

    @Test
    void invalidatingAFolderDropsItsSubtreeOnly() {
        FolderCache cache = abc();
        cache.invalidate(List.of("a", "b"));
        assertThat(cache.deepest(List.of("a", "b", "c")).depth()).isEqualTo(1);
        assertThat(cache.deepest(List.of("a", "x")).depth()).as("a sibling stays").isEqualTo(2);
        assertThat(cache.size()).isEqualTo(2);
        cache.invalidate(List.of("not", "cached"));
        assertThat(cache.size()).isEqualTo(2);
        cache.invalidate(List.of());
        assertThat(cache.size()).isZero();
        assertThat(cache.deepest(List.of("a")).depth()).isZero();
    }

    @Test
    void aFreshReadThatFindsAnotherFolderReplacesTheStaleOneAndItsSubtree() {
        FolderCache cache = abc();
        long g = cache.generation();
        FolderCache.Node a = cache.deepest(List.of("a")).node();
        assertThat(cache.put(a, "b", dir("B"), g)).as("the same folder again").isSameAs(cache.deepest(List.of("a", "b")).node());
        assertThat(cache.size()).isEqualTo(4);
        cache.put(a, "b", dir("B2"), g);
        assertThat(cache.deepest(List.of("a", "b", "c")).depth()).isEqualTo(2);
        assertThat(cache.deepest(List.of("a", "b")).dir().dirId()).isEqualTo("B2");
        assertThat(cache.size()).isEqualTo(3);
    }

    @Test
    void aResolutionThatStartedBeforeAnInvalidationStoresNothing() {
        FolderCache cache = new FolderCache(ROOT);
        long before = cache.generation();
        FolderCache.Node root = cache.deepest(List.of()).node();
        cache.invalidate(List.of("elsewhere"));
        assertThat(cache.put(root, "a", dir("A"), before)).isNull();
        assertThat(cache.put(null, "b", dir("B"), cache.generation())).isNull();
        assertThat(cache.deepest(List.of("a")).depth()).isZero();
        assertThat(cache.size()).isZero();
    }

    @Test
    void pastTheLimitEverythingIsDropped() {
        FolderCache cache = new FolderCache(ROOT);
        long g = cache.generation();
        FolderCache.Node root = cache.deepest(List.of()).node();
        for (int i = 0; i < FolderCache.LIMIT; i++) {
            assertThat(cache.put(root, "f" + i, dir("F" + i), g)).isNotNull();
        }
        assertThat(cache.put(root, "one more", dir("M"), g)).isNull();
        assertThat(cache.size()).isZero();
        assertThat(cache.generation()).as("a resolution under way must not add below the dropped nodes").isNotEqualTo(g);
        assertThat(cache.put(root, "late", dir("L"), g)).isNull();
        assertThat(cache.size()).isZero();
        assertThat(cache.deepest(List.of("f1")).depth()).isZero();
    }
}
