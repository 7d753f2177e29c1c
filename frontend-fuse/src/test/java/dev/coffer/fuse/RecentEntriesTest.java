package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;

/**
 * Which requests of the kernel's note an entry it holds ({@link RecentEntries}): the name of a
 * LOOKUP, SYMLINK, MKDIR, MKNOD and CREATE in their parent, the new name of a RENAME in the new
 * parent; nothing else; a FORGET ends every earlier one; and an entry counts only for its window.
 */
class RecentEntriesTest {
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();
    private final RecentEntries recent = new RecentEntries(TimeUnit.SECONDS.toNanos(5));

    @Test
    void eachRequestThatGivesTheKernelAnEntryNotesItsName() {
        note(request(RecentEntries.FUSE_LOOKUP, 7, new byte[0], "looked"));
        note(request(RecentEntries.FUSE_SYMLINK, 7, new byte[0], "link\0target"));
        note(request(RecentEntries.FUSE_MKDIR, 7, new byte[8], "folder"));
        note(request(RecentEntries.FUSE_MKNOD, 7, new byte[16], "node"));
        note(request(RecentEntries.FUSE_CREATE, 7, new byte[16], "created"));
        byte[] newdir = new byte[8];
        newdir[0] = 9; // fuse_rename_in.newdir = 9 (little-endian, as on this machine's CPUs)
        note(request(RecentEntries.FUSE_RENAME, 7, newdir, "old\0new"));

        for (String name : new String[] {"looked", "link", "folder", "node", "created"}) {
            assertThat(fresh(7, name)).as(name).isTrue();
        }
        assertThat(fresh(9, "new")).as("a rename's new name, in the new folder").isTrue();
        assertThat(fresh(7, "old")).isFalse();
        assertThat(fresh(7, "target")).as("a symlink's target is no name").isFalse();
        assertThat(fresh(8, "looked")).as("another folder").isFalse();
        assertThat(fresh(7, "looke")).isFalse();
    }

    @Test
    void otherRequestsNoteNothing() {
        note(request(10, 7, new byte[0], "unlinked")); // UNLINK
        note(request(3, 7, new byte[0], "attr")); // GETATTR
        assertThat(fresh(7, "unlinked")).isFalse();
        assertThat(fresh(7, "attr")).isFalse();
    }

    @Test
    void aForgetEndsEveryEntryNotedBeforeIt() {
        note(request(RecentEntries.FUSE_LOOKUP, 7, new byte[0], "a"));
        note(request(RecentEntries.FUSE_BATCH_FORGET, 0, new byte[16], ""));
        assertThat(fresh(7, "a")).isFalse();
        note(request(RecentEntries.FUSE_LOOKUP, 7, new byte[0], "a"));
        assertThat(fresh(7, "a")).isTrue();
        note(request(RecentEntries.FUSE_FORGET, 12, new byte[8], ""));
        assertThat(fresh(7, "a")).isFalse();
    }

    @Test
    void anEntryCountsOnlyForItsWindow() throws InterruptedException {
        RecentEntries brief = new RecentEntries(TimeUnit.MILLISECONDS.toNanos(300));
        byte[] name = "a".getBytes(StandardCharsets.UTF_8);
        brief.note(7, name, 0, 1);
        assertThat(brief.fresh(7, name, 0, 1)).isTrue();
        Thread.sleep(600);
        assertThat(brief.fresh(7, name, 0, 1)).isFalse();
    }

    @Test
    void aWindowOfZeroHoldsNothing() {
        RecentEntries none = new RecentEntries(0);
        byte[] name = "a".getBytes(StandardCharsets.UTF_8);
        none.note(7, name, 0, 1);
        assertThat(none.fresh(7, name, 0, 1)).isFalse();
    }

    @Test
    void aTruncatedRequestNotesNothing() {
        Pointer p = request(RecentEntries.FUSE_LOOKUP, 7, new byte[0], "abc");
        recent.note(p, 42); // the name's NUL is beyond the bytes read
        assertThat(fresh(7, "abc")).isFalse();
        assertThat(fresh(7, "ab")).isFalse();
    }

    private void note(Pointer request) {
        recent.note(request, request.getInt(0));
    }

    private boolean fresh(long parent, String name) {
        byte[] b = ("xx" + name).getBytes(StandardCharsets.UTF_8);
        return recent.fresh(parent, b, 2, b.length - 2);
    }

    /** A request: header (opcode, parent), {@code body} bytes, then {@code names} and a NUL; length set by the caller's note. */
    private static Pointer request(int opcode, long parent, byte[] body, String names) {
        byte[] n = names.getBytes(StandardCharsets.UTF_8);
        int length = 40 + body.length + n.length + 1;
        Pointer p = Memory.allocateDirect(RUNTIME, length);
        p.setMemory(0, length, (byte) 0);
        p.putInt(0, length);
        p.putInt(4, opcode);
        p.putLong(16, parent);
        p.put(40, body, 0, body.length);
        p.put(40 + body.length, n, 0, n.length);
        return p;
    }
}
