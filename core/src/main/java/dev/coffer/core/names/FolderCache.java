package dev.coffer.core.names;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
 * <p>Not responsible for resolving folders (that is {@link PathMapper}'s job).
 */
final class FolderCache {
    static final int LIMIT = 20_000;

    /** One cached folder and the cached folders right below it. */
    static final class Node {
        final CiphertextDirectory dir;
        final Map<String, Node> children = new ConcurrentHashMap<>();

        Node(CiphertextDirectory dir) {
            this.dir = dir;
        }
    }

    /** The deepest cached folder on a path, and how many of the path's components lead to it. */
    record Deepest(CiphertextDirectory dir, int depth, Node node) {}

    private final Object lock = new Object();
    private final CiphertextDirectory rootDir;
    private volatile Node root;
    /** Written under {@code lock}; read without it on every lookup ({@link #generation}). */
    private volatile long generation;
    private int size;

    FolderCache(CiphertextDirectory rootDir) {
        this.rootDir = rootDir;
        this.root = new Node(rootDir);
    }

    /** The count of invalidations so far; see {@link #put}. No lock: every lookup asks. */
    long generation() {
        return generation;
    }

    /** The deepest cached folder along {@code nfcComponents} (the root if none below it is cached). */
    Deepest deepest(List<String> nfcComponents) {
        Node node = root;
        int depth = 0;
        for (String component : nfcComponents) {
            Node next = node.children.get(component);
            if (next == null) {
                break;
            }
            node = next;
            depth++;
        }
        return new Deepest(node.dir, depth, node);
    }

    /**
     * Stores {@code child}, found as {@code name} below the folder of {@code parent} (a node from
     * {@link #deepest} or an earlier put; null after a put that stored nothing), unless an
     * invalidation happened since {@code generation}. Returns the node to store the next component
     * under, or null if nothing was stored.
     */
    Node put(Node parent, String name, CiphertextDirectory child, long generation) {
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
                return existing;
            }
            // New, or a fresh read found another folder there (dir.c9r changed underneath): the
            // old one and what was cached below it are stale.
            Node added = new Node(child);
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
        root = new Node(rootDir);
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
