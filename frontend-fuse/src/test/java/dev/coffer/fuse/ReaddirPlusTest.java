package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;

/**
 * The bytes {@link ReaddirPlus} writes for a READDIRPLUS, with libfuse and the C library replaced
 * by a fake that lists and looks up from a table: each entry's lookup and dirent in the kernel's
 * layout, only what fits, a failed lookup as an entry without attributes, a FORGET for every lookup
 * of a reply the kernel did not take or that could not be built (READDIRPLUS asked for at INIT:
 * {@link InitReplyTest}). The kernel's side is {@link ReaddirPlusMountTest}'s.
 */
class ReaddirPlusTest {
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();
    private static final int BUFFER = 135_168;
    private static final long FOLDER = 7;
    private static final long UNIQUE = 4242;
    private static final long HELD = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);

    private final FakeLibfuse lib = new FakeLibfuse();
    private final FakeLibC libc = new FakeLibC();
    private final ReaddirPlus plus = new ReaddirPlus(lib, libc, Memory.allocateDirect(RUNTIME, 8),
            Memory.allocateDirect(RUNTIME, 8), BUFFER, HELD, lib::requestStarts);

    ReaddirPlusTest() {
        lib.plus = plus;
    }

    @Test
    void eachEntryCarriesItsLookupAndItsDirentInTheKernelsLayout() {
        lib.entry("a.txt", 0100644, 11);
        lib.entry("sub", 040755, 12);
        lib.entry("gone", 0100644, 0); // its lookup fails: deleted between the listing and the lookup

        plus.answer(readdirPlus(4096), 80);

        Reply r = libc.reply();
        assertThat(r.error).isZero();
        assertThat(r.unique).isEqualTo(UNIQUE);
        assertThat(r.entries).extracting(e -> e.name).containsExactly(".", "..", "a.txt", "sub", "gone");
        assertThat(r.entries).extracting(e -> e.node).containsExactly(0L, 0L, 11L, 12L, 0L);
        // DT_DIR and DT_REG from the lookup's mode; without a lookup the listing's own type (here DT_UNKNOWN)
        assertThat(r.entries).extracting(e -> e.type).containsExactly(4, 4, 8, 4, 0);
        assertThat(r.entries).extracting(e -> e.off).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(r.entries.get(2).mode).isEqualTo(0100644);
        assertThat(r.paddingZero).isTrue();
        assertThat(lib.lookups).containsExactly("a.txt", "sub", "gone");
        assertThat(lib.requestStarts).as("one request start per request made").isEqualTo(4);
        assertThat(lib.forgets).isEmpty();
    }

    @Test
    void onlyWhatFitsIsLookedUpAndListedAndTheLastEntrysOffsetSaysWhereTheNextRequestStarts() {
        for (int i = 0; i < 40; i++) {
            lib.entry("file" + i, 0100644, 100 + i);
        }

        plus.answer(readdirPlus(1024), 80); // 1,024 bytes: six entries of 160 bytes

        Reply r = libc.reply();
        assertThat(r.entries).extracting(e -> e.name).containsExactly(".", "..", "file0", "file1", "file2", "file3");
        assertThat(lib.lookups).containsExactly("file0", "file1", "file2", "file3");
        assertThat(r.length).isLessThanOrEqualTo(16 + 1024);
        assertThat(r.entries.get(5).off).as("libfuse's offset after file3: the kernel's next request asks from there").isEqualTo(6);
    }

    @Test
    void aReplyHoldsAPageAtMostWhateverTheKernelAsksFor() {
        for (int i = 0; i < 200; i++) {
            lib.entry("file" + i, 0100644, 100 + i);
        }
        plus.answer(readdirPlus(32768), 80); // glibc's listing buffer since Linux 6.16
        assertThat(lib.readdirSizes).containsExactly(ReaddirPlus.LOOKUP_BUDGET);
        assertThat(libc.reply().length).isLessThanOrEqualTo(16 + ReaddirPlus.LOOKUP_BUDGET);
        assertThat(lib.lookups).hasSize(23); // 25 entries of 160 bytes (with . and ..) fit in 4,096 bytes

        libc.written.clear();
        plus.answer(readdirPlus(1 << 22), 80); // a 4 MiB listing buffer (large pages, large getdents)
        assertThat(lib.readdirSizes).containsExactly(ReaddirPlus.LOOKUP_BUDGET, ReaddirPlus.LOOKUP_BUDGET);
    }

    @Test
    void theListingAskedOfLibfuseIsNoLargerThanTheBufferThatKeepsIt() {
        ReaddirPlus small = new ReaddirPlus(lib, libc, Memory.allocateDirect(RUNTIME, 8), Memory.allocateDirect(RUNTIME, 8), 2048,
                HELD, lib::requestStarts);
        lib.plus = small;
        lib.entry("a", 0100644, 11);
        small.answer(readdirPlus(4096), 80);
        assertThat(lib.readdirSizes).containsExactly(2048 - 16);
        assertThat(libc.reply().entries).extracting(e -> e.name).containsExactly(".", "..", "a");
    }

    @Test
    void aReplyTheKernelDoesNotTakeIsFollowedByAForgetOfEachLookup() {
        lib.entry("a", 0100644, 11);
        lib.entry("gone", 0100644, 0);
        lib.entry("b", 0100644, 13);
        libc.fail = 2;

        plus.answer(readdirPlus(4096), 80);

        assertThat(lib.forgets).containsExactly(Map.entry(11L, 1L), Map.entry(13L, 1L));
    }

    @Test
    void aFailureWhileTheReplyIsBuiltIsEioAndForgetsWhatWasLookedUp() {
        lib.entry("a", 0100644, 11);
        lib.entry("b", 0100644, 12);
        lib.failLookupOf = "b";

        plus.answer(readdirPlus(4096), 80);

        assertThat(libc.reply().error).isEqualTo(-5);
        assertThat(libc.reply().length).isEqualTo(16);
        assertThat(lib.forgets).containsExactly(Map.entry(11L, 1L));
    }

    @Test
    void aVirtualMachineErrorWhileTheReplyIsBuiltIsEioAndForgetsWhatWasLookedUp() {
        lib.entry("a", 0100644, 11);
        lib.entry("b", 0100644, 12);
        lib.failLookupOf = "b";
        lib.lookupFailure = new StackOverflowError("as a lookup could meet"); // an Error, as OutOfMemoryError is

        plus.answer(readdirPlus(4096), 80);

        assertThat(libc.reply().error).isEqualTo(-5);
        assertThat(lib.forgets).containsExactly(Map.entry(11L, 1L));
    }

    @Test
    void aFailureOfALaterListingForgetsNothingOfAReplySentBefore() {
        lib.entry("a", 0100644, 11);
        plus.answer(readdirPlus(4096), 80);
        assertThat(libc.reply().error).isZero();
        libc.written.clear();
        lib.readdirFailure = new IllegalStateException("a bug in a listing");

        plus.answer(readdirPlus(4096), 80);

        assertThat(libc.reply().error).isEqualTo(-5);
        assertThat(lib.forgets).as("node 11 is the kernel's now: forgetting it would abort libfuse at its next use").isEmpty();
    }

    @Test
    void aListingOfWhichNoEntryFitsIsEioNotTheEndOfTheFolder() {
        lib.entry("a", 0100644, 11);
        plus.answer(readdirPlus(100), 80); // not even "." (160 bytes) fits; an empty reply would say "no more entries"
        assertThat(libc.reply().error).isEqualTo(-5);
        assertThat(lib.lookups).isEmpty();
    }

    @Test
    void aListingLargerThanTheBufferThatKeepsItIsEio() {
        ReaddirPlus small = new ReaddirPlus(lib, libc, Memory.allocateDirect(RUNTIME, 8), Memory.allocateDirect(RUNTIME, 8), 256,
                HELD, lib::requestStarts);
        lib.plus = small;
        lib.ignoreSize = true; // a libfuse that answered more than it was asked for
        for (int i = 0; i < 20; i++) {
            lib.entry("file" + i, 0100644, 100 + i);
        }
        small.answer(readdirPlus(4096), 80);
        assertThat(libc.reply().error).isEqualTo(-5);
        assertThat(lib.lookups).isEmpty();
    }

    @Test
    void aNameTheKernelWasGivenLatelyIsNotLookedUpAgainUntilAForget() {
        lib.entry("a", 0100644, 11);
        lib.entry("b", 0100644, 12);
        plus.note(lookup("a"), 40 + 2); // the kernel's own LOOKUP of "a" in the folder

        plus.answer(readdirPlus(4096), 80);
        assertThat(lib.lookups).containsExactly("b");
        assertThat(libc.reply().entries).extracting(e -> e.node).containsExactly(0L, 0L, 0L, 12L);

        libc.written.clear();
        lib.lookups.clear();
        plus.answer(readdirPlus(4096), 80); // listed again at once: "b" came with the reply just sent
        assertThat(lib.lookups).isEmpty();

        Pointer forget = Memory.allocateDirect(RUNTIME, 48);
        forget.putInt(0, 48);
        forget.putInt(4, 2); // FUSE_FORGET of some node: which names the kernel let go of is not known
        plus.note(forget, 48);
        libc.written.clear();
        plus.answer(readdirPlus(4096), 80);
        assertThat(lib.lookups).containsExactly("a", "b");
    }

    private static Pointer lookup(String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        Pointer p = Memory.allocateDirect(RUNTIME, 40 + n.length + 1);
        p.putInt(0, 40 + n.length + 1);
        p.putInt(4, ReaddirPlus.FUSE_LOOKUP);
        p.putLong(8, UNIQUE);
        p.putLong(16, FOLDER);
        p.put(40, n, 0, n.length);
        p.putByte(40 + n.length, (byte) 0);
        return p;
    }

    @Test
    void theNamesOfAReplyTheKernelDidNotTakeAreLookedUpAgain() {
        lib.entry("a", 0100644, 11);
        libc.fail = 103; // ECONNABORTED
        plus.answer(readdirPlus(4096), 80);
        libc.fail = 0;
        lib.lookups.clear();
        plus.answer(readdirPlus(4096), 80);
        assertThat(lib.lookups).containsExactly("a");
    }

    @Test
    void withoutAWindowEveryNameIsLookedUp() {
        ReaddirPlus always = new ReaddirPlus(lib, libc, Memory.allocateDirect(RUNTIME, 8), Memory.allocateDirect(RUNTIME, 8),
                BUFFER, 0, lib::requestStarts);
        lib.plus = always;
        lib.entry("a", 0100644, 11);
        always.note(lookup("a"), 40 + 2);
        always.answer(readdirPlus(4096), 80);
        assertThat(lib.lookups).containsExactly("a");
    }

    @Test
    void anErrorOfTheListingIsTheReplysError() {
        lib.readdirError = -9; // EBADF
        plus.answer(readdirPlus(4096), 80);
        assertThat(libc.reply().error).isEqualTo(-9);
        assertThat(lib.lookups).isEmpty();
    }

    private static Pointer readdirPlus(int size) {
        Pointer p = Memory.allocateDirect(RUNTIME, 80);
        p.putInt(0, 80);
        p.putInt(4, ReaddirPlus.FUSE_READDIRPLUS);
        p.putLong(8, UNIQUE);
        p.putLong(16, FOLDER);
        p.putLong(40, 99); // fh
        p.putLong(48, 0); // offset
        p.putInt(56, size);
        return p;
    }

    /** One entry of a READDIRPLUS reply as the kernel reads it. */
    private record Entry(long node, int mode, long off, int type, String name) {}

    private record Reply(int length, int error, long unique, List<Entry> entries, boolean paddingZero) {}

    /** libfuse's part: lists {@code table} as READDIR, answers LOOKUP from it, records FORGET. */
    private static final class FakeLibfuse implements LibFuseChannels {
        ReaddirPlus plus;
        final Map<String, long[]> table = new LinkedHashMap<>(); // name -> {mode, node (0: lookup fails)}
        final List<String> lookups = new ArrayList<>();
        final List<Map.Entry<Long, Long>> forgets = new ArrayList<>();
        final List<Integer> readdirSizes = new ArrayList<>();
        int requestStarts;
        int readdirError;
        RuntimeException readdirFailure;
        boolean ignoreSize;
        String failLookupOf;
        Throwable lookupFailure = new IllegalStateException("a bug in a lookup");
        private int channels;

        void entry(String name, int mode, long node) {
            table.put(name, new long[] {mode, node});
        }

        void requestStarts() {
            requestStarts++;
        }

        @Override
        public int fuse_chan_fd(Pointer channel) {
            return 42;
        }

        @Override
        public Pointer fuse_chan_new(Pointer ops, int fd, long bufsize, Pointer data) {
            return Memory.allocateDirect(RUNTIME, 8 + channels++);
        }

        @Override
        public void fuse_chan_destroy(Pointer channel) {
        }

        @Override
        public void fuse_session_process(Pointer session, Pointer buf, long len, Pointer channel) {
            int opcode = buf.getInt(4);
            assertThat(buf.getInt(0)).as("the request's length").isEqualTo((int) len);
            assertThat(buf.getLong(8)).as("the kernel's unique").isEqualTo(UNIQUE);
            switch (opcode) {
                case ReaddirPlus.FUSE_READDIR -> readdir(buf);
                case ReaddirPlus.FUSE_LOOKUP -> lookup(buf, (int) len);
                case ReaddirPlus.FUSE_FORGET -> forgets.add(Map.entry(buf.getLong(16), buf.getLong(40)));
                default -> throw new AssertionError("opcode " + opcode);
            }
        }

        private void readdir(Pointer buf) {
            assertThat(buf.getLong(16)).isEqualTo(FOLDER);
            assertThat(buf.getLong(40)).as("fh").isEqualTo(99);
            readdirSizes.add(buf.getInt(56));
            if (readdirFailure != null) {
                throw readdirFailure;
            }
            if (readdirError != 0) {
                reply(readdirError, new byte[0]);
                return;
            }
            ByteBuffer out = ByteBuffer.allocate(1 << 16).order(ByteOrder.nativeOrder());
            List<String> names = new ArrayList<>(List.of(".", ".."));
            names.addAll(table.keySet());
            long off = 0;
            for (String name : names) {
                byte[] n = name.getBytes(StandardCharsets.UTF_8);
                int len = ReaddirPlus.align8(24 + n.length);
                if (!ignoreSize && out.position() + len > buf.getInt(56)) {
                    break;
                }
                int at = out.position();
                out.putLong(0xffffffffL).putLong(++off).putInt(n.length).putInt(name.startsWith(".") ? 4 : 0).put(n);
                out.position(at + len);
            }
            byte[] body = new byte[out.position()];
            out.flip();
            out.get(body);
            reply(0, body);
        }

        private void lookup(Pointer buf, int len) {
            assertThat(buf.getLong(16)).as("the folder").isEqualTo(FOLDER);
            byte[] n = new byte[len - 40 - 1];
            buf.get(40, n, 0, n.length);
            assertThat(buf.getByte(len - 1)).as("NUL").isZero();
            String name = new String(n, StandardCharsets.UTF_8);
            if (name.equals(failLookupOf)) {
                if (lookupFailure instanceof Error e) {
                    throw e;
                }
                throw (RuntimeException) lookupFailure;
            }
            lookups.add(name);
            long[] e = table.get(name);
            if (e[1] == 0) {
                reply(-2, new byte[0]);
                return;
            }
            ByteBuffer out = ByteBuffer.allocate(128).order(ByteOrder.nativeOrder());
            out.putLong(0, e[1]).putLong(8, 1).putLong(16, 10).putLong(24, 10);
            out.putLong(40, e[1]).putInt(40 + 60, (int) e[0]);
            reply(0, out.array());
        }

        private void reply(int error, byte[] body) {
            Pointer header = Memory.allocateDirect(RUNTIME, 16);
            header.putInt(0, 16 + body.length);
            header.putInt(4, error);
            header.putLong(8, UNIQUE);
            Pointer payload = Memory.allocateDirect(RUNTIME, Math.max(1, body.length));
            payload.put(0, body, 0, body.length);
            Pointer iov = Memory.allocateDirect(RUNTIME, 32);
            iov.putPointer(0, header);
            iov.putLong(8, 16);
            iov.putPointer(16, payload);
            iov.putLong(24, body.length);
            assertThat(plus.keepReply(null, iov, body.length == 0 ? 1 : 2)).isZero();
        }
    }

    /** The C library's part: records what is written, or fails with an errno. */
    private static final class FakeLibC implements LibC {
        final List<byte[]> written = new ArrayList<>();
        final List<byte[]> writev = new ArrayList<>();
        int fail;

        Reply reply() {
            assertThat(written).hasSize(1);
            ByteBuffer b = ByteBuffer.wrap(written.get(0)).order(ByteOrder.nativeOrder());
            int length = b.getInt(0);
            assertThat(length).isEqualTo(written.get(0).length);
            List<Entry> entries = new ArrayList<>();
            boolean paddingZero = true;
            int at = 16;
            while (at < length) {
                int nameLength = b.getInt(at + 128 + 16);
                byte[] name = new byte[nameLength];
                b.get(at + 128 + 24, name);
                entries.add(new Entry(b.getLong(at), b.getInt(at + 100), b.getLong(at + 128 + 8), b.getInt(at + 128 + 20),
                        new String(name, StandardCharsets.UTF_8)));
                int end = ReaddirPlus.align8(128 + 24 + nameLength);
                for (int i = 128 + 24 + nameLength; i < end; i++) {
                    paddingZero &= b.get(at + i) == 0;
                }
                at += end;
            }
            return new Reply(length, b.getInt(4), b.getLong(8), entries, paddingZero);
        }

        @Override
        public int getuid() {
            return 0;
        }

        @Override
        public int getgid() {
            return 0;
        }

        @Override
        public long writev(int fd, Pointer iov, int count) {
            for (int i = 0; i < count; i++) {
                byte[] b = new byte[(int) iov.getLong(16L * i + 8)];
                iov.getPointer(16L * i).get(0, b, 0, b.length);
                writev.add(b);
            }
            return 0;
        }

        @Override
        public long write(int fd, Pointer buf, long count) {
            assertThat(fd).isEqualTo(42);
            if (fail != 0) {
                jnr.ffi.LastError.setLastError(RUNTIME, fail);
                return -1;
            }
            byte[] b = new byte[(int) count];
            buf.get(0, b, 0, b.length);
            written.add(b);
            return count;
        }
    }
}
