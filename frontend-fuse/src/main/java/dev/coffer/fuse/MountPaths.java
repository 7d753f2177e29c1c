package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A mount point as the kernel will name it: the mount table lists mounts by real paths, so a folder
 * reached through a symbolic link (a home folder under {@code /home -> var/home}) must be compared,
 * unmounted and checked against the vault by its real path, also before it exists.
 */
public final class MountPaths {
    private MountPaths() {}

    /**
     * {@code path} (absolute, normalized) with its parent folders resolved to their real path: the
     * deepest existing ancestor by {@link Path#toRealPath}, the missing ones below it by name. The last
     * name is not followed: it may be a stale mount, which cannot be resolved, or a link the caller
     * looks at itself.
     */
    public static Path withRealParent(Path path) throws IOException {
        Path folder = path.toAbsolutePath().normalize();
        Path parent = folder.getParent();
        if (parent == null || folder.getFileName() == null) {
            return folder;
        }
        Deque<String> missing = new ArrayDeque<>();
        Path existing = parent;
        while (existing != null && !Files.exists(existing)) {
            missing.push(existing.getFileName().toString());
            existing = existing.getParent();
        }
        Path real = existing == null ? parent.getRoot() : existing.toRealPath();
        for (String name : missing) {
            real = real.resolve(name);
        }
        return real.resolve(folder.getFileName().toString());
    }

    /**
     * Whether {@code path} lies in {@code folder} (or is it), compared by real paths, so that a link
     * to the folder, or in the path's parents, cannot hide it; lexically where they cannot be resolved.
     */
    public static boolean isInside(Path path, Path folder) {
        try {
            return real(path).startsWith(real(folder));
        } catch (IOException e) {
            return path.toAbsolutePath().normalize().startsWith(folder.toAbsolutePath().normalize());
        }
    }

    /** {@code path} resolved as far as it exists ({@link #withRealParent}, then the last name too if it resolves). */
    public static Path real(Path path) throws IOException {
        Path p = withRealParent(path);
        try {
            return Files.exists(p) ? p.toRealPath() : p;
        } catch (IOException e) {
            return p; // a stale mount, or gone meanwhile: its parent's real path is what is known
        }
    }
}
