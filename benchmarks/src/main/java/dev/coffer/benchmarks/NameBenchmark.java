package dev.coffer.benchmarks;

import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.names.NameCipher;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link NameCipher}: AES-SIV encryption and decryption of a 20-character name under a directory
 * ID, and the storage-folder hash of a directory ID, both uncached (a cycle of 20,000 IDs, twice
 * the cache limit, so every call misses) and cached (the same ID). Encryptions are remembered too
 * (since session 13): {@code encryptName} cycles through 100,000 names, over ten times the table's
 * slots, so that it measures AES-SIV, and {@code encryptNameRemembered} repeats one name; decryptions
 * likewise (since session 15): {@code decryptName} cycles through the encryptions of those 100,000
 * names (made by another cipher under the same key, so that none is remembered before it is
 * decrypted) and includes remembering its result, {@code decryptNameRemembered} repeats one name.
 * Average time per call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class NameBenchmark {
    static final String NAME = "Quarterly report.odt"; // 20 characters
    private static final int ID_CYCLE = 20_000;
    private static final int NAME_CYCLE = 100_000;

    private AesSiv siv;
    private NameCipher names;
    private String parentDirId;
    private String encrypted;
    private String[] dirIds;
    private String[] cycledNames;
    private String[] cycledEncryptions;
    private int next;
    private int nextName;

    @Setup
    public void setUp() throws AuthenticationFailedException {
        if (NAME.length() != 20) {
            throw new IllegalStateException("name must be 20 characters");
        }
        siv = new AesSiv(BenchSupport.seeded(AesSiv.KEY_LENGTH, 30));
        names = new NameCipher(siv);
        Random r = new Random(BenchSupport.SEED);
        parentDirId = new UUID(r.nextLong(), r.nextLong()).toString();
        dirIds = new String[ID_CYCLE];
        for (int i = 0; i < ID_CYCLE; i++) {
            dirIds[i] = new UUID(r.nextLong(), r.nextLong()).toString();
        }
        cycledNames = new String[NAME_CYCLE];
        for (int i = 0; i < NAME_CYCLE; i++) {
            cycledNames[i] = String.format("Quarterly r%05d.odt", i); // 20 characters too
        }
        NameCipher other = new NameCipher(new AesSiv(BenchSupport.seeded(AesSiv.KEY_LENGTH, 30)));
        cycledEncryptions = new String[NAME_CYCLE];
        for (int i = 0; i < NAME_CYCLE; i++) {
            cycledEncryptions[i] = other.encrypt(cycledNames[i], parentDirId);
        }
        encrypted = names.encrypt(NAME, parentDirId);
        if (!names.decrypt(encrypted, parentDirId).equals(NAME)) {
            throw new IllegalStateException("round trip failed");
        }
    }

    @TearDown
    public void tearDown() {
        siv.destroy();
    }

    @Benchmark
    public String encryptName() {
        String name = cycledNames[nextName];
        nextName = nextName + 1 == NAME_CYCLE ? 0 : nextName + 1;
        return names.encrypt(name, parentDirId);
    }

    @Benchmark
    public String encryptNameRemembered() {
        return names.encrypt(NAME, parentDirId);
    }

    @Benchmark
    public String decryptName() throws AuthenticationFailedException {
        String name = cycledEncryptions[nextName];
        nextName = nextName + 1 == NAME_CYCLE ? 0 : nextName + 1;
        return names.decrypt(name, parentDirId);
    }

    @Benchmark
    public String decryptNameRemembered() throws AuthenticationFailedException {
        return names.decrypt(encrypted, parentDirId);
    }

    @Benchmark
    public String storageFolderUncached() {
        String id = dirIds[next];
        next = next + 1 == ID_CYCLE ? 0 : next + 1;
        return names.storageFolder(id);
    }

    @Benchmark
    public String storageFolderCached() {
        return names.storageFolder(parentDirId);
    }
}
