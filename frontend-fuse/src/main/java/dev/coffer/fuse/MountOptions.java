package dev.coffer.fuse;

import java.util.ArrayList;
import java.util.List;

/**
 * How to mount: read-only or not, extra libfuse options ({@code -o allow_other}...), the name shown
 * as the mount's source, and the most worker threads the session may start.
 *
 * @param readOnly     mount read-only (the kernel refuses writes with EROFS before they reach Java)
 * @param fuseOptions  extra options, each as given to {@code -o} (may hold commas)
 * @param fsName       the source column of the mount table ({@code coffer} by default)
 * @param maxWorkers   the most threads serving requests at once (at least 1)
 * @param names        the Unicode form in which listings show names ({@link NameForm#platformDefault()})
 */
public record MountOptions(boolean readOnly, List<String> fuseOptions, String fsName, int maxWorkers, NameForm names) {
    /** Default pool limit: enough for parallel builds and copies; idle workers cost a blocked thread each. */
    public static final int DEFAULT_MAX_WORKERS = 32;

    /**
     * Seconds the kernel may keep a looked-up name and its attributes before asking again (libfuse's
     * default is 1). Changes made through the mount update or drop the kernel's copy at once; only
     * changes made to the ciphertext behind the mount's back (a sync client) can stay unseen this long.
     */
    static final int CACHE_SECONDS = 10;

    /**
     * Options every Coffer mount uses: 128 KiB writes (libfuse 2's default is 4 KiB), O_TRUNC
     * arrives with open (one request less), names and attributes
     * kept {@value #CACHE_SECONDS} s (a tool that stats a file and opens it a few seconds later,
     * like {@code find | xargs}, or {@code rm -rf} of a big folder, needs one lookup instead of two),
     * and the type {@code fuse.coffer}. Not {@code hard_remove}: with it, fstat of a file unlinked
     * while open fails (Python's TemporaryFile does that); {@link Backing} keeps such files out of
     * sight instead. Not {@code kernel_cache}: file contents are read again after every open.
     *
     * <p>Not {@code default_permissions} either, unless other users may use the mount
     * ({@code allow_other}, {@code allow_root}; then the kernel must check their access): the mount's
     * only user is the one who runs Coffer, and the vault's store checks that user's access to the
     * ciphertext item that carries each mode (a file's ciphertext file, a folder's storage folder), as
     * gocryptfs relies on its store. With {@code default_permissions}, every unlink or create drops the
     * kernel's copy of the folder's attributes and the next request in that folder first asks for
     * them again: {@code rm -rf} paid one more round trip per file (23% of its time).
     */
    static final List<String> BUILT_IN = List.of("big_writes", "max_write=131072",
            "atomic_o_trunc", "entry_timeout=" + CACHE_SECONDS, "attr_timeout=" + CACHE_SECONDS, "subtype=coffer");

    public MountOptions {
        fuseOptions = List.copyOf(fuseOptions);
        java.util.Objects.requireNonNull(names, "names");
        if (maxWorkers < 1) {
            throw new IllegalArgumentException("maxWorkers must be at least 1");
        }
        if (fsName.isEmpty() || fsName.contains(",")) {
            throw new IllegalArgumentException("fsName must be non-empty and without commas");
        }
    }

    /** Read-write or read-only, no extra options, the default pool, names in this platform's form. */
    public static MountOptions defaults(boolean readOnly) {
        return new MountOptions(readOnly, List.of(), "coffer", DEFAULT_MAX_WORKERS, NameForm.platformDefault());
    }

    public MountOptions withFuseOptions(List<String> options) {
        return new MountOptions(readOnly, options, fsName, maxWorkers, names);
    }

    public MountOptions withMaxWorkers(int max) {
        return new MountOptions(readOnly, fuseOptions, fsName, max, names);
    }

    public MountOptions withNames(NameForm form) {
        return new MountOptions(readOnly, fuseOptions, fsName, maxWorkers, form);
    }

    /** True if the caller's options let users other than the mounting one in. */
    boolean sharedWithOthers() {
        for (String o : fuseOptions) {
            for (String one : o.split(",")) {
                String name = one.trim();
                if (name.equals("allow_other") || name.equals("allow_root")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * False where a request may arrive in a pipe instead of memory ({@code -o splice_read}): READDIRPLUS
     * is answered in Java from the request's bytes, so it is not asked for then.
     */
    boolean readdirPlusPossible() {
        return fuseOptions.stream().noneMatch(o -> o.contains("splice_read"));
    }

    /**
     * How long after the kernel was given an entry a listing may take it as still held (half the
     * built-in cache timeouts); 0 where the caller set timeouts of its own ({@code entry_timeout},
     * {@code attr_timeout}, {@code negative_timeout}): every listed name is then looked up.
     */
    long heldEntryNanos() {
        boolean ownTimeouts = fuseOptions.stream().anyMatch(o -> o.contains("_timeout"));
        return ownTimeouts ? 0 : java.util.concurrent.TimeUnit.SECONDS.toNanos(CACHE_SECONDS) / 2;
    }

    /**
     * How long the kernel keeps a name's entry or its attributes on this mount at most, whole seconds
     * rounded up: the longer of the last {@code entry_timeout} and the last {@code attr_timeout} of the
     * caller's options (libfuse takes the last), each {@value #CACHE_SECONDS} unless given. The entry
     * counts too: a size larger than the file's is refreshed only by a stat or the next lookup.
     */
    long kernelCacheSeconds() {
        return (long) Math.ceil(Math.max(lastTimeout("entry_timeout="), lastTimeout("attr_timeout=")));
    }

    private double lastTimeout(String prefix) {
        double seconds = CACHE_SECONDS;
        for (String o : fuseOptions) {
            for (String one : o.split(",")) {
                String option = one.trim();
                if (option.startsWith(prefix)) {
                    try {
                        seconds = Math.max(0, Double.parseDouble(option.substring(prefix.length())));
                    } catch (NumberFormatException e) {
                        // libfuse refuses the mount with its own message
                    }
                }
            }
        }
        return seconds;
    }

    /** The argument vector for {@code fuse_setup}: foreground, the built-in options, then the caller's. */
    List<String> arguments(String mountPoint) {
        List<String> args = new ArrayList<>(List.of(fsName, mountPoint, "-f"));
        List<String> opts = new ArrayList<>(BUILT_IN);
        if (sharedWithOthers()) {
            opts.add("default_permissions");
        }
        opts.add("fsname=" + fsName);
        if (readOnly) {
            opts.add("ro");
        }
        args.add("-o");
        args.add(String.join(",", opts));
        for (String o : fuseOptions) {
            args.add("-o");
            args.add(o);
        }
        return args;
    }
}
