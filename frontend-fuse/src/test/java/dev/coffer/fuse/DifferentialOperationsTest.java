package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same seeded random operations, through java.nio on the default file system, applied to a real
 * mount of a real vault and to a plain temp folder: every operation must end the same way (the
 * same result, or an error of the same kind: exception class, plus the errno text for a plain
 * {@link FileSystemException}), and every 100 operations the whole trees must be the same (names,
 * types, sizes, contents, link targets). Operations: create and write at offsets around the 4096
 * byte units of the vault's files, reads, truncation down ({@link FileChannel#truncate}) and up
 * ({@link RandomAccessFile#setLength}), mkdir, rmdir, unlink, rename with and without replacing,
 * symlinks (also into loops), up to five files open at once, and renames and unlinks of open
 * files. 3,000 operations with a fixed seed ({@code -Dcoffer.differential.seed} and
 * {@code -Dcoffer.differential.ops} change them); a failure names the seed and the operation.
 */
class DifferentialOperationsTest {
    private static final long SEED = Long.getLong("coffer.differential.seed", 20_261_121L);
    private static final int OPS = Integer.getInteger("coffer.differential.ops", 3_000);
    private static final String[] NAMES = {"a", "b", "c", "d"};
    private static final int MAX_OPEN = 5;

    @TempDir
    Path tmp;

    private VaultMount vault;

    /** One file opened on both sides by the same operation. */
    private record Handle(String path, FileChannel mnt, FileChannel ref) {}

    private final List<Handle> handles = new ArrayList<>();

    @BeforeEach
    void mount() throws IOException {
        vault = new VaultMount(tmp);
    }

    @AfterEach
    void unmount() throws Exception {
        try {
            for (Handle h : handles) {
                closeQuietly(h.mnt());
                closeQuietly(h.ref());
            }
        } finally {
            vault.close();
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing is all that is left to do
        }
    }

    /** An operation run on one side; returns what it observed, or throws. */
    private interface Op {
        String run(Path root, FileChannel handle) throws IOException;
    }

    @Test
    void randomOperationsEndTheSameWayOnTheMountAndOnAPlainFolder() throws Exception {
        Path ref = Files.createDirectory(tmp.resolve("ref"));
        Path mnt = vault.mnt;
        Random rnd = new Random(SEED);
        for (int i = 0; i < OPS; i++) {
            String context = "seed " + SEED + ", operation " + i;
            step(rnd, mnt, ref, context);
            if (i % 100 == 99 || i == OPS - 1) {
                assertThat(tree(mnt)).as("tree after %s", context).isEqualTo(tree(ref));
            }
        }
        for (Handle h : handles) {
            h.mnt().close();
            h.ref().close();
        }
        handles.clear();
        assertThat(tree(mnt)).as("tree after closing every file, seed %d", SEED).isEqualTo(tree(ref));
        System.out.println("seed " + SEED + ", " + OPS + " operations: " + outcomes);
        assertThat(outcomes.get("ok")).as("operations that succeeded, of %d (seed %d)", OPS, SEED).isGreaterThan(OPS / 3);
        assertThat(outcomes.size()).as("kinds of errors met").isGreaterThan(6);
    }

    private static String randomPath(Random rnd) {
        int depth = 1 + rnd.nextInt(3);
        StringBuilder sb = new StringBuilder();
        for (int d = 0; d < depth; d++) {
            if (d > 0) {
                sb.append('/');
            }
            sb.append(NAMES[rnd.nextInt(d == depth - 1 ? NAMES.length : 2)]); // folders come from a, b
        }
        return sb.toString();
    }

    /** An offset near a 4096 byte unit boundary (or anywhere, now and then). */
    private static long offset(Random rnd) {
        if (rnd.nextInt(5) == 0) {
            return rnd.nextInt(20_000);
        }
        return Math.max(0, 4096L * rnd.nextInt(5) + rnd.nextInt(7) - 3);
    }

    private static int length(Random rnd) {
        int[] lengths = {0, 1, 2, 100, 4095, 4096, 4097, 8192, 10_000};
        return lengths[rnd.nextInt(lengths.length)];
    }

    private static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private void step(Random rnd, Path mnt, Path ref, String context) throws IOException {
        String path = randomPath(rnd);
        String other = randomPath(rnd);
        int kind = rnd.nextInt(100);
        String description;
        Op op;
        Handle handle = null;
        if (kind < 25 && !handles.isEmpty()) {
            handle = handles.get(rnd.nextInt(handles.size()));
            int what = rnd.nextInt(10);
            long off = offset(rnd);
            if (what < 4) {
                byte[] data = bytes(rnd, length(rnd));
                description = "write " + data.length + " bytes at " + off + " to open " + handle.path();
                op = (root, ch) -> "wrote " + ch.write(ByteBuffer.wrap(data), off) + ", size " + ch.size();
            } else if (what < 6) {
                int n = length(rnd);
                description = "read " + n + " bytes at " + off + " of open " + handle.path();
                op = (root, ch) -> {
                    ByteBuffer b = ByteBuffer.allocate(n);
                    int total = 0;
                    while (b.hasRemaining()) {
                        int r = ch.read(b, off + total);
                        if (r < 0) {
                            break;
                        }
                        total += r;
                    }
                    return "read " + total + " " + sha(b.array(), total);
                };
            } else if (what < 7) {
                description = "truncate open " + handle.path() + " to " + off;
                op = (root, ch) -> {
                    ch.truncate(off);
                    return "size " + ch.size();
                };
            } else if (what < 8) {
                description = "fsync open " + handle.path();
                op = (root, ch) -> {
                    ch.force(true);
                    return "size " + ch.size();
                };
            } else {
                Handle closing = handle;
                handles.remove(closing);
                description = "close " + closing.path();
                op = (root, ch) -> {
                    ch.close();
                    return "closed";
                };
            }
        } else if (kind < 35) {
            if (handles.size() >= MAX_OPEN) {
                Handle h = handles.remove(0);
                h.mnt().close();
                h.ref().close();
            }
            boolean create = rnd.nextBoolean();
            description = "open " + path + (create ? " creating" : "");
            String outcomeMnt = outcome(() -> open(mnt, path, create));
            String outcomeRef = outcome(() -> open(ref, path, create));
            assertThat(outcomeMnt).as("%s: %s", context, description).isEqualTo(outcomeRef);
            count(outcomeRef);
            if (pendingMnt != null && pendingRef != null) {
                handles.add(new Handle(path, pendingMnt, pendingRef));
            } else {
                closeIfOpen(pendingMnt);
                closeIfOpen(pendingRef);
            }
            pendingMnt = null;
            pendingRef = null;
            return;
        } else if (kind < 47) {
            byte[] data = bytes(rnd, length(rnd) * (1 + rnd.nextInt(3)));
            boolean exclusive = rnd.nextInt(4) == 0;
            description = (exclusive ? "create new " : "write whole ") + path + " with " + data.length + " bytes";
            op = (root, ch) -> {
                Files.write(root.resolve(path), data, exclusive
                        ? new StandardOpenOption[] {StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE}
                        : new StandardOpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                                StandardOpenOption.WRITE});
                return "written";
            };
        } else if (kind < 53) {
            long off = offset(rnd);
            byte[] data = bytes(rnd, length(rnd));
            description = "write " + data.length + " bytes at " + off + " into " + path;
            op = (root, ch) -> {
                try (FileChannel c = FileChannel.open(root.resolve(path), StandardOpenOption.WRITE)) {
                    c.write(ByteBuffer.wrap(data), off);
                    return "size " + c.size();
                }
            };
        } else if (kind < 58) {
            long size = offset(rnd) + (rnd.nextBoolean() ? 4096L * rnd.nextInt(3) : 0);
            description = "setLength " + path + " to " + size;
            op = (root, ch) -> {
                try (RandomAccessFile f = new RandomAccessFile(root.resolve(path).toFile(), "rw")) {
                    f.setLength(size);
                    return "length " + f.length();
                }
            };
        } else if (kind < 61) {
            long size = offset(rnd);
            description = "FileChannel.truncate " + path + " to " + size;
            op = (root, ch) -> {
                try (FileChannel c = FileChannel.open(root.resolve(path), StandardOpenOption.WRITE)) {
                    c.truncate(size);
                    return "size " + c.size();
                }
            };
        } else if (kind < 67) {
            description = "read " + path;
            op = (root, ch) -> sha(Files.readAllBytes(root.resolve(path)));
        } else if (kind < 72) {
            description = "stat " + path;
            op = (root, ch) -> {
                BasicFileAttributes a = Files.readAttributes(root.resolve(path), BasicFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS);
                return (a.isRegularFile() ? "file " + a.size() : a.isDirectory() ? "dir" : a.isSymbolicLink() ? "link" : "other")
                        + ", follows to " + (Files.isDirectory(root.resolve(path)) ? "dir"
                                : Files.isRegularFile(root.resolve(path)) ? "file" : "nothing");
            };
        } else if (kind < 75) {
            String dir = rnd.nextBoolean() ? "" : NAMES[rnd.nextInt(2)];
            description = "list " + (dir.isEmpty() ? "/" : dir);
            op = (root, ch) -> {
                try (Stream<Path> s = Files.list(dir.isEmpty() ? root : root.resolve(dir))) {
                    return s.map(p -> p.getFileName().toString()).sorted().toList().toString();
                }
            };
        } else if (kind < 82) {
            description = "mkdir " + path;
            op = (root, ch) -> Files.createDirectory(root.resolve(path)) == null ? "" : "created";
        } else if (kind < 85) {
            description = "rmdir or unlink " + path;
            op = (root, ch) -> {
                Files.delete(root.resolve(path));
                return "deleted";
            };
        } else if (kind < 87) {
            description = "unlink " + path + " if a file";
            op = (root, ch) -> {
                if (Files.isDirectory(root.resolve(path), LinkOption.NOFOLLOW_LINKS)) {
                    return "a folder";
                }
                return "deleted " + Files.deleteIfExists(root.resolve(path));
            };
        } else if (kind < 95) {
            boolean openSource = !handles.isEmpty() && rnd.nextInt(3) == 0;
            String from = openSource ? handles.get(rnd.nextInt(handles.size())).path() : path;
            int how = rnd.nextInt(3);
            description = (how == 0 ? "rename (atomic, replacing) " : how == 1 ? "move (replacing) " : "move ") + from + " to "
                    + other + (openSource ? " (open)" : "");
            op = (root, ch) -> {
                StandardCopyOption[] options = how == 0 ? new StandardCopyOption[] {StandardCopyOption.ATOMIC_MOVE}
                        : how == 1 ? new StandardCopyOption[] {StandardCopyOption.REPLACE_EXISTING} : new StandardCopyOption[0];
                Files.move(root.resolve(from), root.resolve(other), options);
                return "moved";
            };
        } else {
            String[] targets = {"a", "b", "c", "a/c", "b/d", "missing", path.substring(path.lastIndexOf('/') + 1)};
            String target = targets[rnd.nextInt(targets.length)];
            description = "symlink " + path + " -> " + target;
            op = (root, ch) -> {
                Files.createSymbolicLink(root.resolve(path), Path.of(target));
                return "linked " + Files.readSymbolicLink(root.resolve(path));
            };
        }
        Handle h = handle;
        Op o = op;
        String onMnt = outcome(() -> o.run(mnt, h == null ? null : h.mnt()));
        String onRef = outcome(() -> o.run(ref, h == null ? null : h.ref()));
        assertThat(onMnt).as("%s: %s", context, description).isEqualTo(onRef);
        count(onRef);
    }

    private final TreeMap<String, Integer> outcomes = new TreeMap<>();

    /** Counts outcomes by kind, so that the test can show it did not only meet errors. */
    private void count(String outcome) {
        String kind = outcome.startsWith("ok") ? "ok" : outcome;
        outcomes.merge(kind, 1, Integer::sum);
    }

    private FileChannel pendingMnt;
    private FileChannel pendingRef;

    private String open(Path root, String path, boolean create) throws IOException {
        FileChannel ch = create
                ? FileChannel.open(root.resolve(path), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(root.resolve(path), StandardOpenOption.READ, StandardOpenOption.WRITE);
        if (root.equals(vault.mnt)) {
            pendingMnt = ch;
        } else {
            pendingRef = ch;
        }
        return "open, size " + ch.size();
    }

    private static void closeIfOpen(FileChannel ch) throws IOException {
        if (ch != null) {
            ch.close();
        }
    }

    private interface Outcome {
        String get() throws IOException;
    }

    /** What an operation observed, or the kind of error it ended with (never a path or a message). */
    private static String outcome(Outcome o) {
        try {
            return "ok: " + o.get();
        } catch (FileSystemException e) {
            String reason = e.getClass() == FileSystemException.class ? " (" + e.getReason() + ")" : "";
            return "error: " + e.getClass().getSimpleName() + reason;
        } catch (FileNotFoundException e) { // RandomAccessFile: "path (reason)"
            String m = String.valueOf(e.getMessage());
            return "error: FileNotFoundException" + (m.lastIndexOf(" (") >= 0 ? m.substring(m.lastIndexOf(" (")) : "");
        } catch (IOException e) {
            return "error: " + e.getClass().getSimpleName() + " (" + e.getMessage() + ")";
        }
    }

    /** Every entry below {@code root}, never following links: type, size and content digest, or link target. */
    private static TreeMap<String, String> tree(Path root) throws IOException {
        TreeMap<String, String> entries = new TreeMap<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (!dir.equals(root)) {
                    entries.put(root.relativize(dir).toString(), "dir");
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                String name = root.relativize(file).toString();
                if (attrs.isSymbolicLink()) {
                    entries.put(name, "link -> " + Files.readSymbolicLink(file));
                } else if (attrs.isRegularFile()) {
                    entries.put(name, "file " + attrs.size() + " " + sha(Files.readAllBytes(file)));
                } else {
                    entries.put(name, "other");
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return entries;
    }

    private static String sha(byte[] data) {
        return sha(data, data.length);
    }

    private static String sha(byte[] data, int length) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(data, 0, length);
            return HexFormat.of().formatHex(md.digest(), 0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
