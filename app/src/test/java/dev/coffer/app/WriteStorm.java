package dev.coffer.app;

import dev.coffer.core.health.FindingKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The write storm the SIGKILL tests run through a mount, in its own folder: creates files, writes
 * them, fsyncs them ({@code FileChannel.force(true)}), renames and deletes files, overwrites parts
 * of them, makes, moves and removes folders, until an operation fails (the kill). Every file whose
 * fsync returned goes into {@code durable}, and leaves it before it is renamed, deleted or written
 * again, so {@code durable} always holds what must survive a crash. {@link #inFlight} names the
 * file whose content was being changed when the storm stopped (spec 1 allows its changed units to
 * be unreadable after a crash).
 */
final class WriteStorm implements Runnable {
    /**
     * What an interrupted operation of the storm may leave, besides notes, when the check marks it
     * repairable: orphans (mkdir), dangling pointers and missing dirid.c9r (rmdir), temporary files,
     * a new file holding only its header (the kill fell between the header and the first unit), and
     * an interrupted write (a write cut short by the kill, its last unit partly written). Nothing else.
     */
    static final Set<FindingKind> REPAIRABLE_LEFTOVERS = Set.of(FindingKind.ORPHAN_FOLDER, FindingKind.DANGLING_POINTER,
            FindingKind.MISSING_DIRID, FindingKind.TEMPORARY_FILE, FindingKind.IMPOSSIBLE_SIZE, FindingKind.INTERRUPTED_WRITE);

    /** A file's content: {@code size} bytes from {@code seed}. */
    record Content(long seed, int size) {
        byte[] bytes() {
            byte[] b = new byte[size];
            new Random(seed).nextBytes(b);
            return b;
        }
    }

    private final Path root;
    private final Random rnd;
    private final Map<String, Content> durable;
    private final List<String> folders = new ArrayList<>();
    private final List<String> files = new ArrayList<>();
    final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    volatile boolean killed;
    volatile int fsyncs;
    volatile int operations;
    /** The mount-relative path of the file whose content the current operation changes, or null. */
    volatile String inFlight;
    private final long start = System.nanoTime();
    private int next;

    WriteStorm(Path mnt, String folder, Random rnd, Map<String, Content> durable) {
        this.root = mnt;
        this.rnd = rnd;
        this.durable = durable;
        folders.add(folder);
    }

    long millis() {
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Override
    public void run() {
        try {
            Files.createDirectory(root.resolve(folders.get(0)));
            while (true) {
                step();
                inFlight = null;
                operations++;
            }
        } catch (Throwable e) {
            if (!killed) {
                failures.add("operation " + operations + ": " + e);
            }
        }
    }

    private void forget(String prefix) {
        durable.keySet().removeIf(k -> k.equals(prefix) || k.startsWith(prefix + "/"));
    }

    private void step() throws IOException {
        int kind = rnd.nextInt(100);
        if (kind < 55 || files.isEmpty()) {
            create();
        } else if (kind < 70) {
            String from = files.get(rnd.nextInt(files.size()));
            String to = folders.get(rnd.nextInt(folders.size())) + "/renamed " + next++;
            forget(from);
            Files.move(root.resolve(from), root.resolve(to), StandardCopyOption.ATOMIC_MOVE);
            files.set(files.indexOf(from), to);
        } else if (kind < 80) {
            String file = files.remove(rnd.nextInt(files.size()));
            forget(file);
            Files.delete(root.resolve(file));
        } else if (kind < 88) {
            String file = files.get(rnd.nextInt(files.size()));
            forget(file);
            inFlight = file;
            try (FileChannel ch = FileChannel.open(root.resolve(file), StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), rnd.nextInt(10_000)); // no longer the recorded content
            }
        } else if (kind < 94 || folders.size() < 2) {
            String folder = folders.get(rnd.nextInt(folders.size())) + "/folder " + next++;
            Files.createDirectory(root.resolve(folder));
            folders.add(folder);
        } else if (kind < 97) {
            removeAnEmptyFolder();
        } else {
            moveAFolder();
        }
    }

    private void create() throws IOException {
        String folder = folders.get(rnd.nextInt(folders.size()));
        String name = folder + "/file " + next++;
        Content c = new Content(rnd.nextLong(), rnd.nextInt(300_000));
        byte[] data = c.bytes();
        boolean sync = rnd.nextInt(4) != 0;
        inFlight = name;
        try (FileChannel ch = FileChannel.open(root.resolve(name), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int off = 0; off < data.length; off += 64 << 10) {
                ch.write(ByteBuffer.wrap(data, off, Math.min(64 << 10, data.length - off)));
            }
            files.add(name);
            if (sync) {
                ch.force(true);
                durable.put(name, c); // fsync returned
                fsyncs++;
            }
        }
    }

    /** Removes a folder (not the storm's own) that holds no file and no folder; none: does nothing. */
    private void removeAnEmptyFolder() throws IOException {
        for (int i = folders.size() - 1; i >= 1; i--) {
            String folder = folders.get(i);
            boolean empty = files.stream().noneMatch(f -> f.startsWith(folder + "/"))
                    && folders.stream().noneMatch(f -> f.startsWith(folder + "/"));
            if (empty) {
                Files.delete(root.resolve(folder));
                folders.remove(i);
                return;
            }
        }
    }

    private void moveAFolder() throws IOException {
        String folder = folders.get(1 + rnd.nextInt(folders.size() - 1));
        String to = folders.get(0) + "/moved " + next++;
        if (to.startsWith(folder + "/")) {
            return;
        }
        forget(folder);
        Files.move(root.resolve(folder), root.resolve(to), StandardCopyOption.ATOMIC_MOVE);
        for (int i = 0; i < folders.size(); i++) {
            String f = folders.get(i);
            if (f.equals(folder) || f.startsWith(folder + "/")) {
                folders.set(i, to + f.substring(folder.length()));
            }
        }
        for (int i = 0; i < files.size(); i++) {
            String f = files.get(i);
            if (f.startsWith(folder + "/")) {
                files.set(i, to + f.substring(folder.length()));
            }
        }
    }
}
