package dev.coffer.fuse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;

/**
 * Finds what a mount needs on this machine and says clearly what is missing: the {@code /dev/fuse}
 * device, libfuse 2 (which jnr-fuse binds to), and the {@code fusermount} program (from the fuse3
 * package, which also unmounts libfuse 2 mounts). Loads the native libraries once found.
 *
 * <p>Not responsible for mounting.
 */
final class NativeFuse {
    static final Path DEVICE = Path.of("/dev/fuse");
    static final List<String> LIBRARIES = List.of("libfuse.so.2", "fuse");
    private static final String SERVE_HINT = " Or use `coffer serve`, which serves the vault over WebDAV without FUSE.";

    final LibFuseSession fuse;
    /** libfuse's channel functions, for {@link NoFlushReplies}: only on 64-bit Linux, and only if the library has them. */
    final Optional<LibFuseChannels> channels;
    /** libfuse's cache invalidation, for {@link WorkerRequest}: likewise. */
    final Optional<LibFuseNotify> notify;
    final LibC libc;
    final Path fusermount;

    private NativeFuse(LibFuseSession fuse, Optional<LibFuseChannels> channels, Optional<LibFuseNotify> notify, LibC libc,
            Path fusermount) {
        this.fuse = fuse;
        this.channels = channels;
        this.notify = notify;
        this.libc = libc;
        this.fusermount = fusermount;
    }

    /** Everything found and loaded, or a {@link FuseUnavailableException} that says what to install. */
    static NativeFuse load() throws FuseUnavailableException {
        return load(DEVICE, LIBRARIES, System.getenv("PATH"));
    }

    static NativeFuse load(Path device, List<String> libraries, String searchPath) throws FuseUnavailableException {
        checkDevice(device);
        Path fusermount = findFusermount(searchPath).orElseThrow(() -> new FuseUnavailableException(
                "FUSE is not available: the fusermount program is not installed. Install the package fuse3 "
                        + "(Debian, Ubuntu: sudo apt install fuse3; Fedora: fuse3)." + SERVE_HINT));
        Loaded<LibFuseSession> fuse = loadLibFuse(libraries);
        LibC libc = LibraryLoader.create(LibC.class).failImmediately().load("c");
        return new NativeFuse(fuse.library(), channels(fuse.name()), linuxOnly(LibFuseNotify.class, fuse.name()), libc, fusermount);
    }

    private record Loaded<T>(T library, String name) {}

    private static Optional<LibFuseChannels> channels(String library) {
        return channels(library, System.getProperty("os.name", ""), Runtime.getSystemRuntime().addressSize());
    }

    /** {@code type}'s functions from {@code library}, on 64-bit Linux only (where they were checked), if it has them. */
    private static <T> Optional<T> linuxOnly(Class<T> type, String library) {
        if (!System.getProperty("os.name", "").startsWith("Linux") || Runtime.getSystemRuntime().addressSize() != 8) {
            return Optional.empty();
        }
        try {
            return Optional.of(LibraryLoader.create(type).failImmediately().load(library));
        } catch (LinkageError | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * FOPEN_NOFLUSH is a Linux kernel flag, and {@link NoFlushReplies} reads 64-bit structures:
     * elsewhere (macFUSE, WinFsp, a 32-bit JVM) every close keeps its FLUSH.
     */
    static Optional<LibFuseChannels> channels(String library, String osName, int addressSize) {
        if (!osName.startsWith("Linux") || addressSize != 8) {
            return Optional.empty();
        }
        try {
            return Optional.of(LibraryLoader.create(LibFuseChannels.class).failImmediately().load(library));
        } catch (LinkageError | RuntimeException e) {
            return Optional.empty();
        }
    }

    static void checkDevice(Path device) throws FuseUnavailableException {
        if (!Files.exists(device)) {
            throw new FuseUnavailableException("FUSE is not available: " + device + " does not exist (the fuse kernel "
                    + "module is not loaded: sudo modprobe fuse; in a container, start it with --device /dev/fuse)."
                    + SERVE_HINT);
        }
        if (!Files.isReadable(device) || !Files.isWritable(device)) {
            throw new FuseUnavailableException("FUSE is not available: no permission to use " + device + "." + SERVE_HINT);
        }
    }

    private static Loaded<LibFuseSession> loadLibFuse(List<String> libraries) throws FuseUnavailableException {
        for (String name : libraries) {
            try {
                return new Loaded<>(LibraryLoader.create(LibFuseSession.class).failImmediately().load(name), name);
            } catch (LinkageError | RuntimeException e) {
                // try the next name
            }
        }
        throw new FuseUnavailableException("FUSE is not available: libfuse 2 (libfuse.so.2) is not installed. "
                + "Install the package libfuse2 (Debian, Ubuntu: sudo apt install libfuse2 fuse3; Ubuntu 24.04: "
                + "libfuse2t64; Fedora: fuse-libs)." + SERVE_HINT);
    }

    /** fusermount (or fusermount3) on {@code searchPath}. */
    static Optional<Path> findFusermount(String searchPath) {
        if (searchPath == null) {
            return Optional.empty();
        }
        for (String dir : searchPath.split(":")) {
            for (String name : List.of("fusermount", "fusermount3")) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }
}
