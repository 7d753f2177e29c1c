package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same seeded random file operations applied through a real davfs2 mount of the server (a
 * real vault behind it, davfs2 taking WebDAV locks) and to a plain folder: every operation must
 * succeed or fail alike, every 50 operations the mounted tree must equal the folder (names, types,
 * sizes, contents), and after unmounting (davfs2 uploads what it still caches) so must the vault
 * itself, and davfs2's cache of the mount (cleartext) must be gone. Operations: whole-file writes,
 * writes at offsets around 4 KiB units, appends, reads,
 * truncation, mkdir, rmdir, delete, rename of files and folders with and without replacing.
 * Needs root and davfs2 (a missing one is a failure). 400 operations with a fixed seed
 * ({@code -Dcoffer.davfs.seed}, {@code -Dcoffer.davfs.ops}).
 */
class DavfsDifferentialTest {
    private static final long SEED = Long.getLong("coffer.davfs.seed", 20_261_121L);
    private static final int OPS = Integer.getInteger("coffer.davfs.ops", 400);
    private static final String[] NAMES = {"a", "b", "c"};
    /** davfs2's own folder for files it could not upload; it exists only in the mount. */
    private static final String DAVFS_LOST_FOUND = "lost+found";

    @TempDir
    Path tmp;

    private ServedVault served;
    private Davfs2Mount mount;
    private Path ref;

    @BeforeEach
    void mount() throws IOException {
        assertThat(Davfs2Mount.helper()).as("davfs2 must be installed (scripts/test.sh installs it)").isPresent();
        assertThat(System.getProperty("user.name")).as("mounting davfs2 needs root").isEqualTo("root");
        served = new ServedVault(tmp);
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        ref = Files.createDirectory(tmp.resolve("ref"));
        mount = Davfs2Mount.mount(served.url(), mnt);
    }

    @AfterEach
    void unmount() throws IOException {
        try {
            if (mount != null) {
                mount.close();
            }
        } finally {
            served.close();
        }
    }

    @Test
    void randomOperationsEndTheSameWayThroughDavfs2AndOnAPlainFolder() throws Exception {
        Random rnd = new Random(SEED);
        Path mnt = mount.mountPoint();
        Map<String, Integer> outcomes = new TreeMap<>();
        for (int i = 1; i <= OPS; i++) {
            String context = "seed " + SEED + ", operation " + i;
            String[] result = step(rnd, mnt, ref);
            assertThat(result[0]).as("%s: %s", context, result[2]).isEqualTo(result[1]);
            outcomes.merge(result[2].split(" ")[0] + (result[1].equals("ok") ? " ok" : " error"), 1, Integer::sum);
            if (i % 50 == 0) {
                assertThat(tree(mnt)).as("mounted tree after %s", context).isEqualTo(tree(ref));
            }
        }
        assertThat(mount.cacheFolders()).as("davfs2's cache of this mount").isNotEmpty();
        mount.close();
        assertThat(tree(served.root)).as("the vault after unmounting").isEqualTo(tree(ref));
        assertThat(mount.cacheFolders()).as("no cleartext left in davfs2's cache").isEmpty();
        System.out.println("davfs2 differential outcomes: " + outcomes);
        assertThat(outcomes.keySet()).as("a mix of successes and errors").anyMatch(k -> k.endsWith(" ok")).anyMatch(k -> k.endsWith(" error"));
    }

    private static String randomPath(Random rnd) {
        StringBuilder sb = new StringBuilder(NAMES[rnd.nextInt(NAMES.length)]);
        while (rnd.nextInt(3) == 0 && sb.length() < 6) {
            sb.append('/').append(NAMES[rnd.nextInt(NAMES.length)]);
        }
        return sb.toString();
    }

    private static byte[] bytes(Random rnd) {
        int[] sizes = {0, 1, 100, 4095, 4096, 4097, 9000, 70_000};
        byte[] b = new byte[sizes[rnd.nextInt(sizes.length)]];
        rnd.nextBytes(b);
        return b;
    }

    /** Applies one random operation to both trees: {outcome on the mount, outcome on the folder, description}. */
    private static String[] step(Random rnd, Path mnt, Path ref) {
        String p = randomPath(rnd);
        String q = randomPath(rnd);
        int kind = rnd.nextInt(10);
        byte[] data = bytes(rnd);
        long offset = new long[] {0, 1, 4095, 4096, 4097, 8192, 20_000}[rnd.nextInt(7)];
        long newLength = new long[] {0, 1, 4096, 5000, 12_288}[rnd.nextInt(5)];
        Action a = switch (kind) {
            case 0, 1 -> root -> Files.write(root.resolve(p), data);
            case 2 -> root -> {
                try (RandomAccessFile f = new RandomAccessFile(existingFile(root.resolve(p)), "rw")) {
                    f.seek(offset);
                    f.write(data);
                }
            };
            case 3 -> root -> Files.write(root.resolve(p), data, StandardOpenOption.APPEND);
            case 4 -> root -> {
                try (RandomAccessFile f = new RandomAccessFile(existingFile(root.resolve(p)), "rw")) {
                    f.setLength(newLength);
                }
            };
            case 5 -> root -> Files.createDirectory(root.resolve(p));
            case 6 -> root -> Files.delete(root.resolve(p));
            case 7, 8 -> root -> Files.move(root.resolve(p), root.resolve(q), StandardCopyOption.REPLACE_EXISTING);
            default -> root -> Files.readAllBytes(root.resolve(p));
        };
        String what = new String[] {"write", "write", "pwrite", "append", "truncate", "mkdir", "delete", "rename", "rename", "read"}[kind]
                + " " + p + (kind == 7 || kind == 8 ? " -> " + q : "") + " (" + data.length + " bytes, offset " + offset + ", length " + newLength + ")";
        return new String[] {outcome(a, mnt), outcome(a, ref), what};
    }

    /** RandomAccessFile would create a missing file; the operation is meant for existing ones. */
    private static java.io.File existingFile(Path p) throws IOException {
        if (!Files.isRegularFile(p)) {
            throw new java.nio.file.NoSuchFileException(p.getFileName().toString());
        }
        return p.toFile();
    }

    private interface Action {
        void apply(Path root) throws IOException;
    }

    /** "ok", or the kind of failure: the exception class (its reason differs between kernels' wording). */
    private static String outcome(Action a, Path root) {
        try {
            a.apply(root);
            return "ok";
        } catch (FileSystemException e) {
            return e.getClass().getSimpleName();
        } catch (IOException e) {
            return "IOException";
        }
    }

    private static TreeMap<String, String> tree(Path root) throws IOException {
        TreeMap<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String rel = root.relativize(p).toString();
                if (rel.isEmpty() || rel.equals(DAVFS_LOST_FOUND) || rel.startsWith(DAVFS_LOST_FOUND + "/")
                        || p.getFileName().toString().startsWith(DeadProperties.RESERVED_PREFIX)) {
                    continue;
                }
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.put(rel, "dir");
                } else {
                    byte[] b = Files.readAllBytes(p);
                    out.put(rel, "file " + b.length + " " + sha(b));
                }
            }
        }
        return out;
    }

    private static String sha(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
