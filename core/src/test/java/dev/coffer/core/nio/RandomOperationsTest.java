package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A seeded random-operation differential test: the same thousands of operations go to a vault and
 * to a plain folder, and every result (bytes read, sizes, exception types) and the whole tree must
 * agree. The vault side gets names in NFC or NFD at random; the plain side always NFC.
 */
class RandomOperationsTest {
    private static final int OPS = 3000;
    private static final int S = 4096;
    private static final String[] BASE_NAMES = {"a", "b.txt", "Ångström", "café.md", "日本", "🎉 party", "x".repeat(140),
            "é".repeat(127) + "x", "naïve résumé", "d1", "d2"};

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void vaultBehavesLikeAPlainFolder(CipherCombo combo) throws IOException {
        Path plain = Files.createDirectory(tmp.resolve("plain"));
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("vault"), "pass phrase".toCharArray(),
                new VaultCreationOptions(combo, 1 << 14, 220))) {
            Side a = new Side(plain, false);
            Side b = new Side(fs.getPath("/"), true);
            Random rnd = new Random(combo.ordinal() * 31L + 17);
            for (int op = 0; op < OPS; op++) {
                long seed = rnd.nextLong();
                String ra = a.apply(new Random(seed));
                String rb = b.apply(new Random(seed));
                assertThat(rb).as("op %d", op).isEqualTo(ra);
                if (op % 100 == 99) {
                    assertThat(b.snapshot()).as("tree after op %d", op).isEqualTo(a.snapshot());
                }
            }
            a.closeAll();
            b.closeAll();
            assertThat(b.snapshot()).isEqualTo(a.snapshot());
        }
    }

    /** One side of the comparison: a root, the channels open on it, and the operations. */
    private static final class Side {
        private final Path root;
        private final boolean mixForms;
        private final List<FileChannel> channels = new ArrayList<>();
        private final List<String> channelPaths = new ArrayList<>();

        Side(Path root, boolean mixForms) {
            this.root = root;
            this.mixForms = mixForms;
        }

        /** Applies one random operation; returns a description of its outcome. */
        String apply(Random r) {
            try {
                return switch (r.nextInt(11)) {
                    case 0, 1 -> write(r);
                    case 2 -> truncate(r);
                    case 3 -> mkdir(r);
                    case 4 -> delete(r);
                    case 5 -> move(r);
                    case 6 -> openChannel(r);
                    case 7, 8 -> channelWrite(r);
                    case 9 -> channelRead(r);
                    default -> closeChannel(r);
                };
            } catch (IOException | RuntimeException e) {
                return "error " + standardType(e.getClass());
            }
        }

        /** The nearest JDK exception type: the vault's own subclasses carry more detail than the default provider's. */
        private static String standardType(Class<?> c) {
            while (!c.getName().startsWith("java.")) {
                c = c.getSuperclass();
            }
            return c.getSimpleName();
        }

        private Path path(Random r) {
            StringBuilder sb = new StringBuilder();
            int depth = 1 + r.nextInt(2);
            for (int i = 0; i < depth; i++) {
                String name = BASE_NAMES[r.nextInt(BASE_NAMES.length)];
                boolean nfd = r.nextBoolean();
                if (mixForms && nfd) {
                    name = Normalizer.normalize(name, Normalizer.Form.NFD);
                }
                sb.append(i == 0 ? "" : "/").append(name);
            }
            return root.resolve(sb.toString());
        }

        private static byte[] data(Random r) {
            int n = switch (r.nextInt(4)) {
                case 0 -> r.nextInt(20);
                case 1 -> Math.max(0, S * (1 + r.nextInt(2)) + r.nextInt(33) - 16);
                default -> r.nextInt(3 * S);
            };
            byte[] d = new byte[n];
            r.nextBytes(d);
            return d;
        }

        private static long offset(Random r) {
            return r.nextBoolean() ? Math.max(0, r.nextInt(4) * S + r.nextInt(35) - 17) : r.nextInt(3 * S);
        }

        private String write(Random r) throws IOException {
            Path p = path(r);
            byte[] d = data(r);
            Files.write(p, d);
            return "wrote " + d.length;
        }

        private String truncate(Random r) throws IOException {
            Path p = path(r);
            long n = offset(r);
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                ch.truncate(n);
                return "size " + ch.size();
            }
        }

        private String mkdir(Random r) throws IOException {
            Files.createDirectory(path(r));
            return "mkdir";
        }

        private String delete(Random r) throws IOException {
            Files.delete(path(r));
            return "deleted";
        }

        private String move(Random r) throws IOException {
            Path from = path(r);
            Path to = path(r);
            Path nfcFrom = root.resolve(Normalizer.normalize(root.relativize(from).toString(), Normalizer.Form.NFC));
            Path nfcTo = root.resolve(Normalizer.normalize(root.relativize(to).toString(), Normalizer.Form.NFC));
            if (nfcTo.startsWith(nfcFrom) || nfcFrom.startsWith(nfcTo)) {
                return "skipped";
            }
            if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
                // JDK 17 reports a source below a file as ENOTDIR, JDK 25 as NoSuchFile: compare existence instead.
                return "no source";
            }
            if (r.nextBoolean()) {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.move(from, to);
            }
            return "moved";
        }

        private String openChannel(Random r) throws IOException {
            if (channels.size() >= 4) {
                return "enough";
            }
            Path p = path(r);
            FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            channels.add(ch);
            channelPaths.add(Normalizer.normalize(root.relativize(p).toString(), Normalizer.Form.NFC));
            return "opened " + ch.size();
        }

        private String channelWrite(Random r) throws IOException {
            if (channels.isEmpty()) {
                return "none";
            }
            FileChannel ch = channels.get(r.nextInt(channels.size()));
            byte[] d = data(r);
            long pos = offset(r);
            ch.write(ByteBuffer.wrap(d), pos);
            return "cwrote " + d.length + " size " + ch.size();
        }

        private String channelRead(Random r) throws IOException {
            if (channels.isEmpty()) {
                return "none";
            }
            FileChannel ch = channels.get(r.nextInt(channels.size()));
            ByteBuffer buf = ByteBuffer.allocate(1 + r.nextInt(2 * S));
            long pos = offset(r);
            int n = ch.read(buf, pos);
            return "read " + n + " " + java.util.Arrays.hashCode(java.util.Arrays.copyOf(buf.array(), Math.max(0, n)));
        }

        private String closeChannel(Random r) throws IOException {
            if (channels.isEmpty()) {
                return "none";
            }
            int i = r.nextInt(channels.size());
            channels.remove(i).close();
            channelPaths.remove(i);
            return "closed";
        }

        void closeAll() throws IOException {
            for (FileChannel ch : channels) {
                ch.close();
            }
            channels.clear();
        }

        /** Every path (NFC) with its type and content hash. */
        Map<String, String> snapshot() throws IOException {
            Map<String, String> out = new TreeMap<>();
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.toList()) {
                    String rel = Normalizer.normalize(root.relativize(p).toString(), Normalizer.Form.NFC);
                    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        out.put(rel, "dir");
                    } else {
                        byte[] content = Files.readAllBytes(p);
                        out.put(rel, content.length + ":" + java.util.Arrays.hashCode(content));
                    }
                }
            }
            return out;
        }
    }
}
