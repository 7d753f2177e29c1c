package dev.coffer.core.health;

import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.RootTemporaryFiles;
import dev.coffer.core.vault.UnlockedVault;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The health check and repair of a vault (issue 8), the core's front door for {@code coffer check}
 * and the GUI. {@link #check()} walks the whole vault from the ciphertext side (the tree from the
 * root, then every storage folder no pointer reaches) and returns a {@link HealthReport}: every
 * finding and the repairs that would fix the repairable ones. {@link #repair} makes those repairs.
 * Reads each file's header and, in SIV_XTSHMAC, authenticates every unit while streaming; file
 * contents are never changed except that an interrupted write is cut back to its readable part (a
 * copy kept first), and nothing is deleted that is not identical to what stays (or an empty orphan,
 * or a temporary file older than a day).
 *
 * <p>The vault must not be open elsewhere (mounted) while it is checked or repaired: the check
 * reads a moving target, and repairs assume nobody else is writing.
 */
public final class VaultHealth implements AutoCloseable {
    private static final String VAULT_FILE = "vault.coffer";
    private static final String MASTERKEY_FILE = "masterkey.coffer";

    private final VaultKeys keys;
    /** Its own handle on the vault, for repairs that open the vault file system. */
    private final UnlockedVault forRepairs;

    private VaultHealth(VaultKeys keys, UnlockedVault forRepairs) {
        this.keys = keys;
        this.forRepairs = forRepairs;
    }

    /** A checker for {@code unlocked}; takes its own keys, so the caller still closes {@code unlocked}. */
    public static VaultHealth of(UnlockedVault unlocked) {
        return new VaultHealth(new VaultKeys(unlocked), unlocked.copy());
    }

    /** Checks the whole vault; writes nothing. */
    public HealthReport check() throws IOException {
        Walk walk = new Walk(keys, new Repairs(keys));
        rootFileCopies(walk);
        for (Path temp : RootTemporaryFiles.list(keys.vaultDir)) {
            walk.temporaryInRoot(temp);
        }
        StorageInspector inspector = new StorageInspector(walk, new ContentVerifier(keys.content));
        walk.claim("", "/");
        Folder root = new Folder(keys.mapper.root(), "/");
        if (Files.isDirectory(root.dir().storage())) {
            walk.visitLater(root);
        } else {
            walk.report(FindingKind.DANGLING_POINTER, "/", root.dir().storage(),
                    "the root folder's storage folder is missing; repair creates it, empty", walk.repairs.createStorage(""));
        }
        walk.drain(inspector);
        new OrphanSearch(walk).run(inspector);
        return walk.report();
    }

    /**
     * What {@link #repair} did: the repairs made, the ones that failed (with why), and notes on repairs
     * made that people should know of (a damaged file a duplicate-ID repair copied as it is).
     */
    public record RepairOutcome(List<PlannedRepair> done, List<String> failures, List<String> notes) {
        public RepairOutcome {
            done = List.copyOf(done);
            failures = List.copyOf(failures);
            notes = List.copyOf(notes);
        }
    }

    /**
     * Makes the repairs {@code report} plans, in order; one that fails is named in the outcome and
     * the others still run. Check again afterwards: what remains cannot be repaired.
     */
    public RepairOutcome repair(HealthReport report) {
        Repairs repairs = new Repairs(keys, () -> CofferFileSystems.open(forRepairs.copy(), false));
        List<PlannedRepair> done = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (PlannedRepair r : report.repairs()) {
            try {
                r.apply(repairs);
                done.add(r);
            } catch (IOException | RuntimeException e) {
                failures.add(r.description() + ": " + e.getMessage());
            }
        }
        try {
            repairs.close();
        } catch (IOException e) {
            failures.add("closing the vault after the repairs: " + e.getMessage());
        }
        return new RepairOutcome(done, failures, repairs.notes());
    }

    /** Sync-conflict copies of the root files (spec 2.1): listed, never resolved or deleted. */
    private void rootFileCopies(Walk walk) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(keys.vaultDir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (!name.endsWith(".coffer") || name.equals(VAULT_FILE) || name.equals(MASTERKEY_FILE)
                        || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                String canonical = name.startsWith("vault") ? VAULT_FILE : name.startsWith("masterkey") ? MASTERKEY_FILE : null;
                if (canonical != null && !Arrays.equals(SmallFiles.read(p), SmallFiles.read(keys.vaultDir.resolve(canonical)))) {
                    walk.report(FindingKind.ROOT_FILE_COPY, null, p, "a sync-conflict copy of " + canonical
                            + " with other content; Coffer uses " + canonical + " (spec 2.1). Keep the right one and remove the other"
                            + " by hand; never resolved automatically", null);
                }
            }
        }
    }

    /** Destroys this checker's keys. */
    @Override
    public void close() {
        keys.close();
        forRepairs.close();
    }
}
