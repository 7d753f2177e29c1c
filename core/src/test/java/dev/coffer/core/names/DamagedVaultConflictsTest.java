package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Resolves every folder of the reference implementation's damaged vaults and checks the disk
 * against the "What a conforming writer does on disk" table ({@code damage.json} writerActions),
 * byte for byte, and the listed tree against the reference manifest.
 */
class DamagedVaultConflictsTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"damaged-vault-xtshmac", "damaged-vault-xts"})
    void writerChangesExactlyWhatTheReferenceTableSays(String vaultName) throws Exception {
        Path vault = tmp.resolve(vaultName);
        TestVault.copyTree(TestData.dir().resolve(vaultName), vault);
        TestVault v = TestVault.unlock(vault);
        Map<String, String> before = TestVault.snapshot(vault);

        Set<String> listed = walk(v, v.resolver(false));

        JsonNode expectations = TestData.json("damage.json").get("vaults").get(vaultName);
        assertThat(TestVault.snapshot(vault)).isEqualTo(expectedAfter(before, expectations));
        assertThat(listed).isEqualTo(expectedListing(vaultName, expectations));

        Map<String, String> resolved = TestVault.snapshot(vault);
        assertThat(walk(v, v.resolver(false))).isEqualTo(listed);
        assertThat(TestVault.snapshot(vault)).as("a second listing changes nothing").isEqualTo(resolved);
    }

    @ParameterizedTest
    @ValueSource(strings = {"damaged-vault-xtshmac", "damaged-vault-xts"})
    void readOnlyListsTheSameTreeAndWritesNothing(String vaultName) throws Exception {
        Path vault = tmp.resolve(vaultName);
        TestVault.copyTree(TestData.dir().resolve(vaultName), vault);
        TestVault v = TestVault.unlock(vault);
        Map<String, String> before = TestVault.snapshot(vault);

        Set<String> listed = walk(v, v.resolver(true));

        assertThat(TestVault.snapshot(vault)).isEqualTo(before);
        assertThat(listed).isEqualTo(expectedListing(vaultName, TestData.json("damage.json").get("vaults").get(vaultName)));
    }

    /** Lists and resolves every reachable folder; returns the cleartext paths of all listed entries. */
    private static Set<String> walk(TestVault v, ConflictResolver resolver) throws IOException {
        Set<String> out = new TreeSet<>();
        walk(v, resolver, v.mapper.root(), "", out);
        return out;
    }

    private static void walk(TestVault v, ConflictResolver resolver, CiphertextDirectory dir, String prefix, Set<String> out) throws IOException {
        List<Entry> entries = resolver.resolve(v.lister.list(dir));
        for (Entry e : entries) {
            String path = prefix + e.name();
            out.add(path);
            if (e.type() == EntryType.DIRECTORY) {
                walk(v, resolver, v.mapper.open(e, "/" + path), path + "/", out);
            }
        }
    }

    private static Map<String, String> expectedAfter(Map<String, String> before, JsonNode expectations) {
        Map<String, String> expected = new TreeMap<>(before);
        int actions = 0;
        for (JsonNode item : expectations.get("items")) {
            for (JsonNode a : item.get("writerActions")) {
                actions++;
                String src = a.get("src").asText();
                String dst = a.get("dst") == null ? null : a.get("dst").asText();
                switch (a.get("kind").asText()) {
                    case "remove" -> assertThat(expected.remove(src)).as(src).isNotNull();
                    case "rename", "new-entry" -> {
                        Map<String, String> moved = new HashMap<>();
                        expected.keySet().removeIf(k -> {
                            if (k.equals(src) || k.startsWith(src + "/")) {
                                moved.put(dst + k.substring(src.length()), before.get(k));
                                return true;
                            }
                            return false;
                        });
                        assertThat(moved).as(src).isNotEmpty();
                        expected.putAll(moved);
                        if (a.has("nameC9s")) {
                            expected.put(dst + "/name.c9s", TestVault.sha256(a.get("nameC9s").asText().getBytes(StandardCharsets.US_ASCII)));
                        }
                        if (a.get("kind").asText().equals("new-entry")) {
                            expected.put(dst.substring(0, dst.lastIndexOf('/')), "dir");
                        }
                    }
                    default -> throw new AssertionError("unknown action " + a);
                }
            }
        }
        assertThat(actions).as("items d e f g l m n o p q u").isEqualTo(11);
        return expected;
    }

    /** The reference export's paths plus the files that are listed but unreadable (so absent from the export). */
    private static Set<String> expectedListing(String vaultName, JsonNode expectations) throws IOException {
        Set<String> expected = new TreeSet<>();
        for (String line : Files.readAllLines(TestData.dir().resolve(vaultName + ".manifest"), StandardCharsets.UTF_8)) {
            expected.add(line.substring(0, line.indexOf('\t')));
        }
        expectations.get("unreadable").forEach(n -> expected.add(n.asText()));
        return expected;
    }
}
