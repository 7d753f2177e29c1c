package dev.coffer.core.names;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The folders {@link PathMapper} has resolved, kept as a tree of cleartext names: finding a folder
 * walks one map per path component (no key string is built), and dropping a moved or deleted
 * subtree is one removal from its parent, whatever the number of folders cached elsewhere.
 * Bounded: past {@value #LIMIT} folders everything is dropped. Thread-safe.
 *
 * <p>A resolution that started before an invalidation must not store what it found (the folder may
 * have moved meanwhile): callers take a {@link #generation()} before resolving and pass it to
 * {@link #put}, which stores nothing if any invalidation happened since.
 *
 * <p>A folder's pointer ({@code dir.c9r}) can change behind the vault's back: a sync client brings
 * another device's rename of the folder, or its removal and a new folder of that name. So a cached
 * folder is trusted for {@link #TRUST_NANOS} after it was read or last checked; the walk that next
 * passes it has the {@link Checker} look at its pointer again, and drops it (with what was cached
 * below it) if the pointer no longer names that folder. Folders cached through this mount's own
 * changes are dropped by the changes themselves ({@link #invalidate}, {@link #forget}).
 *
 * <p>Not responsible for resolving folders (that is {@link PathMapper}'s job), nor for reading
 * pointers (the checker's).
 */
final class FolderCache {
    static final int LIMIT = 20_000;
    /** How long a cached folder is used without a look at its pointer: how late a change underneath can be seen. */
    static final long TRUST_NANOS = 1_000_000_000L;

    /** Looks at a cached folder's pointer: whether it still names the folder cached (may read it). */
    interface Checker {
        boolean stillCurrent(Node node);
    }

    /** One cached folder and the cached folders right below it. */
    static final class Node {
        final CiphertextDirectory dir;
        /** The folder's {@code dir.c9r}; null for the root, which has none. */
        final Path pointer;
        final Map<String, Node> children = new ConcurrentHashMap<>();
        /** When the folder was read or last found current (the cache's clock). */
        volatile long checkedAt;
        /** What the checker saw of the pointer when it last read it, for its next look; null before. */
        volatile Object seen;

        Node(CiphertextDirectory dir, Path pointer, long checkedAt) {
            this.dir = dir;
            this.pointer = pointer;
            this.checkedAt = checkedAt;
        }
    }

    /** The deepest cached folder on a path, and how many of the path's components lead to it. */
    record Deepest(CiphertextDirectory dir, int depth, Node node) {}

    private final Object lock = new Object();
    private final CiphertextDirectory rootDir;
    private final Checker checker;
    private final LongSupplier clock;
    private volatile Node root;
    /** Written under {@code lock}; read without it on every lookup ({@link #generation}). */
    private volatile long generation;
    private int size;

    /** A cache whose folders never change underneath (tests of the tree alone). */
    FolderCache(CiphertextDirectory rootDir) {
        this(rootDir, node -> true, System::nanoTime);
    }

    /** @param clock nanoseconds, for {@link #TRUST_NANOS} */
    FolderCache(CiphertextDirectory rootDir, Checker checker, LongSupplier clock) {
        this.rootDir = rootDir;
        this.checker = checker;
        this.clock = clock;
        this.root = new Node(rootDir, null, 0);
    }

    /** The count of invalidations so far; see {@link #put}. No lock: every lookup asks. */
    long generation() {
        return generation;
    }

    /**
     * The folder cached at {@code nfcComponents} if every folder on the way is within its trust time
     * (no pointer due for a look), else null; never reads anything.
     */
    CiphertextDirectory trusted(List<String> nfcComponents) {
        Node node = root;
        long now = nfcComponents.isEmpty() ? 0 : clock.getAsLong();
        for (String component : nfcComponents) {
            Node next = node.children.get(component);
            if (next == null || (next.pointer != null && now - next.checkedAt > TRUST_NANOS)) {
                return null;
            }
            node = next;
        }
        return node.dir;
    }

    /** The deepest cached folder along {@code nfcComponents} (the root if none below it is cached). */
    Deepest deepest(List<String> nfcComponents) {
        Node node = root;
        int depth = 0;
        long now = 0;
        boolean clockRead = false;
        for (String component : nfcComponents) {
            Node next = node.children.get(component);
            if (next == null) {
                break;
            }
            if (!clockRead) {
                now = clock.getAsLong();
                clockRead = true;
            }
            if (next.pointer != null && now - next.checkedAt > TRUST_NANOS) {
                if (!checker.stillCurrent(next)) {
                    drop(node, component, next);
                    break;
                }
                next.checkedAt = now;
            }
            node = next;
            depth++;
        }
        return new Deepest(node.dir, depth, node);
    }

    /** Drops {@code stale}, found as {@code name} below {@code parent}, unless it was replaced meanwhile. */
    private void drop(Node parent, String name, Node stale) {
        synchronized (lock) {
            generation++; // a resolution that began before must not store what it read of the old pointer
            if (parent.children.remove(name, stale)) {
                size -= count(stale);
            }
        }
    }

    /**
     * Drops the folder cached at {@code nfcComponents}, if any (nothing is read): the name is known to
     * hold no folder now (a lookup found it free or taken by something else), so a folder cached
     * there was removed or replaced underneath and must not take a new entry's place.
     */
    void forget(List<String> nfcComponents) {
        if (nfcComponents.isEmpty()) {
            return;
        }
        Node parent = root;
        for (String component : nfcComponents.subList(0, nfcComponents.size() - 1)) {
            parent = parent.children.get(component);
            if (parent == null) {
                return;
            }
        }
        String name = nfcComponents.get(nfcComponents.size() - 1);
        Node cached = parent.children.get(name);
        if (cached != null) {
            drop(parent, name, cached);
        }
    }

    /**
     * Stores {@code child}, found as {@code name} below the folder of {@code parent} (a node from
     * {@link #deepest} or an earlier put; null after a put that stored nothing), unless an
     * invalidation happened since {@code generation}. Returns the node to store the next component
     * under, or null if nothing was stored.
     */
    Node put(Node parent, String name, CiphertextDirectory child, long generation) {
        return put(parent, name, child, null, generation);
    }

    /** As {@link #put(Node, String, CiphertextDirectory, long)}, for a folder read from {@code pointer}, checked from then on. */
    Node put(Node parent, String name, CiphertextDirectory child, Path pointer, long generation) {
        synchronized (lock) {
            if (generation != this.generation || parent == null) {
                return null;
            }
            if (size >= LIMIT) {
                this.generation++; // the caller's nodes are no longer in the tree: it must not add below them
                clearLocked();
                return null;
            }
            Node existing = parent.children.get(name);
            if (existing != null && existing.dir.equals(child)) {
                existing.checkedAt = clock.getAsLong(); // just read again: current
                return existing;
            }
            // New, or a fresh read found another folder there (dir.c9r changed underneath): the
            // old one and what was cached below it are stale.
            Node added = new Node(child, pointer, clock.getAsLong());
            parent.children.put(name, added);
            size += 1 - (existing == null ? 0 : count(existing));
            return added;
        }
    }

    /** Drops the folder at {@code nfcComponents} and everything cached below it (all of it for the root). */
    void invalidate(List<String> nfcComponents) {
        synchronized (lock) {
            generation++;
            if (nfcComponents.isEmpty()) {
                clearLocked();
                return;
            }
            Node parent = root;
            for (String component : nfcComponents.subList(0, nfcComponents.size() - 1)) {
                parent = parent.children.get(component);
                if (parent == null) {
                    return; // nothing cached at or below it
                }
            }
            Node removed = parent.children.remove(nfcComponents.get(nfcComponents.size() - 1));
            if (removed != null) {
                size -= count(removed);
            }
        }
    }

    /** Drops everything. */
    void clear() {
        synchronized (lock) {
            generation++;
            clearLocked();
        }
    }

    private void clearLocked() {
        root = new Node(rootDir, null, 0);
        size = 0;
    }

    /** Folders in a removed subtree (usually one: a deleted folder was empty). */
    private static int count(Node n) {
        int c = 1;
        for (Node child : n.children.values()) {
            c += count(child);
        }
        return c;
    }

    /** Cached folders (tests). */
    int size() {
        synchronized (lock) {
            return size;
        }
    }
}
