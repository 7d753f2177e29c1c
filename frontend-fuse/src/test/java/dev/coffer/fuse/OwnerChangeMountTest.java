package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * Through a real mount of a real vault, with FUSE_HANDLE_KILLPRIV asked for at INIT ({@link
 * InitReply}): a chown or fchown sends the mount no GETATTR before its SETATTR (the kernel's
 * re-read of the mode it would otherwise make to clear setuid and setgid bits), and what that
 * re-read protected holds anyway: no entry ever shows setuid or setgid bits, and a chown leaves the
 * mode and the content as they were.
 */
class OwnerChangeMountTest {
    private static final int CHANGES = 10;

    @TempDir
    Path tmp;
    private VaultMount vm;
    private GetattrCountingAdapter adapter;

    private void mount() throws IOException {
        vm = new VaultMount(tmp, MountOptions.defaults(false),
                (root, uid, gid) -> adapter = new GetattrCountingAdapter(root, uid, gid));
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        if (vm != null) {
            vm.close();
        }
    }

    @Test
    void aChownAsksForTheAttributesOnlyOnceLibfuseItselfDoes() throws Exception {
        mount();
        Files.writeString(vm.mnt.resolve("owned.txt"), "content");
        String owner = owner();
        Shell.ok(vm.mnt, "stat", "owned.txt"); // looked up and its attributes cached
        int before = adapter.calls("/owned.txt");
        for (int i = 0; i < CHANGES; i++) {
            Shell.ok(vm.mnt, "chown", owner, "owned.txt");
        }
        // libfuse 2 reads the attributes after each setattr for its reply; the kernel's own GETATTR before it would double that
        assertThat(adapter.calls("/owned.txt") - before).as("getattr calls for %d chowns", CHANGES).isEqualTo(CHANGES);
        assertThat(Files.readString(vm.mnt.resolve("owned.txt"))).isEqualTo("content");
    }

    @Test
    void anFchownOfAnOpenFileToo() throws Exception {
        mount();
        Files.writeString(vm.mnt.resolve("open.txt"), "content");
        Shell.ok(vm.mnt, "stat", "open.txt");
        int before = adapter.calls("/open.txt");
        // perl's chown takes a file handle: fchown(2) of a file it opened for writing and then wrote
        Shell.ok(vm.mnt, "perl", "-e", "open(my $f, '+<', $ARGV[0]) or die \"$!\"; syswrite($f, 'C') or die \"$!\";"
                + " for (1.." + CHANGES + ") { chown($<, $( + 0, $f) or die \"$!\" }", "open.txt");
        // the open's lookup (none: cached), its write and release ask for nothing; each fchown's reply once
        assertThat(adapter.calls("/open.txt") - before).as("getattr calls for %d fchowns", CHANGES).isLessThanOrEqualTo(CHANGES + 1);
        assertThat(Files.readString(vm.mnt.resolve("open.txt"))).isEqualTo("Content");
    }

    @Test
    void noEntryShowsSetuidOrSetgidBitsSoThereIsNothingForAChownToClear() throws Exception {
        mount();
        Files.writeString(vm.mnt.resolve("tool"), "#!/bin/sh\necho ran\n");
        Shell.ok(vm.mnt, "chmod", "6755", "tool");
        assertThat(Shell.ok(vm.mnt, "stat", "-c", "%a", "tool").trim()).isEqualTo("755");
        Shell.ok(vm.mnt, "chown", owner(), "tool");
        assertThat(Shell.ok(vm.mnt, "stat", "-c", "%a", "tool").trim()).isEqualTo("755");
        assertThat(Shell.ok(vm.mnt, "./tool").trim()).isEqualTo("ran");
        Files.createDirectory(vm.mnt.resolve("folder"));
        Shell.ok(vm.mnt, "chmod", "2775", "folder");
        assertThat(Shell.ok(vm.mnt, "stat", "-c", "%a", "folder").trim()).isEqualTo("775");
    }

    private String owner() throws IOException, InterruptedException {
        return Shell.ok(vm.mnt, "id", "-u").trim() + ":" + Shell.ok(vm.mnt, "id", "-g").trim();
    }

    /** Counts getattr and fgetattr calls by path. */
    static final class GetattrCountingAdapter extends FuseAdapter {
        private final java.util.Map<String, AtomicInteger> counts = new java.util.concurrent.ConcurrentHashMap<>();

        GetattrCountingAdapter(Path root, long uid, long gid) {
            super(root, uid, gid);
        }

        int calls(String path) {
            AtomicInteger n = counts.get(path);
            return n == null ? 0 : n.get();
        }

        private void count(String path) {
            if (path != null) {
                counts.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            }
        }

        @Override
        public int getattr(String path, FileStat stat) {
            count(path);
            return super.getattr(path, stat);
        }

        @Override
        public int fgetattr(String path, FileStat stat, FuseFileInfo fi) {
            count(path);
            return super.fgetattr(path, stat, fi);
        }
    }
}
