package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shrink or a gathering append whose n-th mutating step fails (EIO, or half written then EIO), for
 * every n, leaves the old file if the call failed, the new one if it succeeded: in memory and opened
 * again, with the file's copy of its last unit and without (opened again first), written at once
 * and queued. Among them appends after a merged last unit (S + r), whose r bytes the new units
 * overwrite first.
 */
class FailureAtEveryStepTest {
    @TempDir
    Path tmp;

    interface Op { void apply(OpenFile f) throws IOException; }

    private final List<String> problems = new ArrayList<>();

    @Test
    void shrinksFailingAtEveryStep() throws Exception {
        long[][] cases = {
            {3 * 4096 + 100, 5000}, {3 * 4096 + 100, 8192}, {2 * 4096 + 100, 2 * 4096 + 10}, {3 * 4096 + 100, 10},
            {2 * 4096 + 10, 4096 + 5}, {2 * 4096 + 10, 4096}, {4096 + 10, 100}, {40 * 4096 + 7, 33 * 4096 + 3},
            {4096 + 10, 4096 + 3}, {20, 10}, {4096 + 5, 15}, {100, 16}, {5000, 4096 + 8},
        };
        for (boolean auth : new boolean[] {true, false}) {
            for (long[] c : cases) {
                for (boolean reopen : new boolean[] {false, true}) {
                    long to = c[1];
                    run(auth, (int) c[0], reopen, "shrink " + c[0] + "->" + to, f -> f.setSize(to), old -> Arrays.copyOf(old, (int) to), false);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void gatheringAppendsFailingAtEveryStep() throws Exception {
        int[][] cases = { // {oldSize, buffer lengths...}
            {5000, 5000, 5000}, {4096 + 10, 3000, 2000}, {4096 + 10, 100, 4000}, {8192, 100, 200}, {10, 3, 4},
            {10, 4000, 3000}, {2 * 4096 + 15, 1, 1}, {4096 + 10, 30000, 30000, 30000}, {100, 60000, 60000},
        };
        for (boolean auth : new boolean[] {true, false}) {
            for (int[] c : cases) {
                for (boolean reopen : new boolean[] {false, true}) {
                    for (boolean queue : new boolean[] {false, true}) {
                        int[] lens = Arrays.copyOfRange(c, 1, c.length);
                        Random r = new Random(Arrays.hashCode(c));
                        byte[][] bufs = new byte[lens.length][];
                        for (int i = 0; i < lens.length; i++) { bufs[i] = new byte[lens[i]]; r.nextBytes(bufs[i]); }
                        run(auth, c[0], reopen, "append " + Arrays.toString(c) + (queue ? " queued" : ""), f -> {
                            ByteBuffer[] bb = new ByteBuffer[bufs.length];
                            for (int i = 0; i < bb.length; i++) bb[i] = ByteBuffer.wrap(bufs[i]);
                            f.append(bb, 0, bb.length, Long.MAX_VALUE);
                            f.force(false); // collect a write running behind
                        }, old -> {
                            byte[] all = old;
                            for (byte[] b : bufs) { byte[] n = Arrays.copyOf(all, all.length + b.length); System.arraycopy(b, 0, n, all.length, b.length); all = n; }
                            return all;
                        }, queue);
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private void run(boolean auth, int oldSize, boolean reopen, String what, Op op, java.util.function.UnaryOperator<byte[]> expect, boolean queue)
            throws Exception {
        ContentKeys keys = new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), auth);
        for (NthStepFailingChannel.Mode mode : NthStepFailingChannel.Mode.values()) {
            for (int n = 1; n < 20; n++) {
                String label = (auth ? "HMAC " : "XTS ") + what + (reopen ? " reopened" : " cached") + " " + mode + " step " + n;
                Path file = tmp.resolve("f" + System.nanoTime() + ".c9r");
                byte[] old = new byte[oldSize];
                new Random(oldSize * 31L + n).nextBytes(old);
                NthStepFailingChannel ch = new NthStepFailingChannel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE));
                OpenFile.FreeSpace fs = queue ? () -> Long.MAX_VALUE / 4 : null;
                OpenFile f = new OpenFile(ch, keys, "/f", false, fs);
                f.write(ByteBuffer.wrap(old), 0);
                f.force(false);
                if (reopen) {
                    f.close();
                    ch = new NthStepFailingChannel(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE));
                    f = new OpenFile(ch, keys, "/f", false, fs);
                }
                ch.arm(n, mode);
                boolean threw = false;
                try {
                    op.apply(f);
                } catch (IOException e) {
                    threw = true;
                }
                try {
                    f.force(false); // a failure of a write behind / queued append shows here
                } catch (IOException e) {
                    threw = true;
                }
                boolean injected = ch.failed;
                byte[] want = threw ? old : expect.apply(old); // a failure swallowed: the new content must be there
                check(label + (threw ? " (failed)" : " (succeeded)") + " in memory", f, want);
                f.close();
                try (OpenFile g = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
                    check(label + (threw ? " (failed)" : " (succeeded)") + " reopened", g, want);
                } catch (IOException e) {
                    problems.add(label + " reopened: " + e);
                }
                if (!injected) {
                    break; // all steps done
                }
            }
        }
    }

    private void check(String label, OpenFile f, byte[] want) {
        try {
            if (f.size() != want.length) {
                problems.add(label + ": size " + f.size() + " want " + want.length);
                return;
            }
            ByteBuffer back = ByteBuffer.allocate(want.length);
            while (back.hasRemaining() && f.read(back, back.position()) > 0) { }
            int mm = Arrays.mismatch(back.array(), want);
            if (mm >= 0) {
                problems.add(label + ": content differs at " + mm);
            }
        } catch (IOException e) {
            problems.add(label + ": " + e);
        }
    }
}
