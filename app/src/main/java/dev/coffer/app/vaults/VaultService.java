package dev.coffer.app.vaults;

import dev.coffer.core.health.VaultUseLock;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.ConflictCopy;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.InvalidPassphraseException;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.core.vault.VaultCreationOptions;
import dev.coffer.core.vault.VaultFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The app's vaults and what can be done with them: add, create, remove from the list (never
 * deleting files), unlock (check, scrypt, mount), lock (unmount, then close the file system), and
 * the settings that survive restarts. Each operation moves the vault's {@link ManagedVault} state
 * and tells the listeners. Blocking: the UI calls it from background tasks. Every passphrase array
 * handed in is wiped before the method returns.
 *
 * <p>Not responsible for the passphrase-related vault operations ({@link VaultKeys}), auto-lock
 * ({@link AutoLock}) or anything shown on screen.
 */
public final class VaultService {
    /** A Windows drive letter with its colon, such as {@code Z:} (optionally with a backslash). */
    private static final java.util.regex.Pattern DRIVE_LETTER = java.util.regex.Pattern.compile("[A-Za-z]:\\\\?");

    private static final Logger LOG = LoggerFactory.getLogger(VaultService.class);

    private final SettingsStore store;
    private final Mounters mounters;
    private final Clock clock;
    private final Path defaultMountFolder;
    private final int scryptCost;
    private final List<ManagedVault> vaults = new CopyOnWriteArrayList<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final List<BiConsumer<ManagedVault, ConflictCopy>> conflictCopyListeners = new CopyOnWriteArrayList<>();
    private volatile Preferences preferences;

    /**
     * @param defaultMountFolder where drives appear when a vault names no mount point (one folder per vault)
     * @param scryptCost         scrypt N for new vaults (2^17 normally; tests use the minimum)
     */
    public VaultService(SettingsStore store, Mounters mounters, Clock clock, Path defaultMountFolder, int scryptCost)
            throws IOException {
        this.store = store;
        this.mounters = mounters;
        this.clock = clock;
        this.defaultMountFolder = defaultMountFolder;
        this.scryptCost = scryptCost;
        Settings settings = store.load();
        this.preferences = settings.preferences();
        settings.vaults().forEach(v -> vaults.add(new ManagedVault(v)));
    }

    public List<ManagedVault> vaults() {
        return List.copyOf(vaults);
    }

    public Optional<ManagedVault> find(String id) {
        return vaults.stream().filter(v -> v.id().equals(id)).findFirst();
    }

    /** Called after any change to the list, a vault's settings or its state, on the thread that changed it. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    /**
     * Called for each conflict copy core makes in an unlocked vault of a file a program had open while
     * a sync client replaced or deleted it (or could not make: then those writes are lost), with the
     * vault and the cleartext paths; see {@link CofferFileSystem#onConflictCopies}. Called on the thread
     * that made the copy: a FUSE or WebDAV worker, or the one locking the vault. Return quickly.
     */
    public void addConflictCopyListener(BiConsumer<ManagedVault, ConflictCopy> listener) {
        conflictCopyListeners.add(listener);
    }

    public Preferences preferences() {
        return preferences;
    }

    public void updatePreferences(Preferences changed) throws IOException {
        preferences = changed;
        saveAndNotify();
    }

    Clock clock() {
        return clock;
    }

    /**
     * Adds an existing vault, given its folder or its vault.coffer; a vault already in the list is
     * returned as it is.
     */
    public ManagedVault add(Path folderOrConfig) throws IOException {
        Path folder = folderOrConfig.toAbsolutePath().normalize();
        if (Files.isRegularFile(folder) && folder.getFileName().toString().equals("vault.coffer")) {
            folder = folder.getParent();
        }
        if (!Files.isDirectory(folder)) {
            throw new VaultException(Problem.FOLDER_MISSING, folder.toString());
        }
        if (!VaultAccess.isVault(folder)) {
            throw new VaultException(Problem.NOT_A_VAULT, folder.toString());
        }
        Path key = folder;
        Optional<ManagedVault> known = vaults.stream().filter(v -> v.settings().folderPath().equals(key)).findFirst();
        if (known.isPresent()) {
            return known.get();
        }
        String name = folder.getFileName() == null ? folder.toString() : folder.getFileName().toString();
        ManagedVault added = new ManagedVault(VaultSettings.added(UUID.randomUUID().toString(), name, folder, preferences));
        vaults.add(added);
        saveAndNotify();
        return added;
    }

    /**
     * Creates a vault in {@code parent/name} (missing or empty), adds it to the list, and returns it
     * with its 48 recovery words. Runs scrypt twice (create, then recovery key).
     */
    public CreatedVault create(Path parent, String name, char[] passphrase, CipherCombo mode) throws IOException {
        char[] forRecovery = Arrays.copyOf(passphrase, passphrase.length);
        try {
            Path folder = parent.resolve(name).toAbsolutePath().normalize();
            requireMissingOrEmpty(folder);
            VaultCreationOptions options = new VaultCreationOptions(mode, scryptCost,
                    VaultCreationOptions.defaults().shorteningThreshold());
            char[] forCreate = Arrays.copyOf(passphrase, passphrase.length);
            CofferFileSystems.create(folder, forCreate, options).close(); // wipes forCreate
            List<String> words = VaultAccess.recoveryKey(folder, forRecovery);
            return new CreatedVault(add(folder), words);
        } finally {
            Arrays.fill(forRecovery, '\0');
            Arrays.fill(passphrase, '\0');
        }
    }

    /** Removes the vault from the list; its files stay where they are. Only a locked vault can be removed. */
    public void remove(ManagedVault vault) throws IOException {
        VaultState s = vault.state();
        if (s != VaultState.LOCKED && s != VaultState.ERROR) {
            throw new IllegalStateException("lock the vault before removing it from the list");
        }
        vaults.remove(vault);
        saveAndNotify();
    }

    /** Changes a vault's settings (options dialog) and saves them. */
    public void update(ManagedVault vault, UnaryOperator<VaultSettings> change) throws IOException {
        vault.settings(change.apply(vault.settings()));
        saveAndNotify();
    }

    /**
     * Unlocks and mounts. A wrong passphrase leaves the vault locked; any other failure leaves it in
     * {@link VaultState#ERROR} with the problem. Either way a {@link VaultException} says why.
     */
    public void unlock(ManagedVault vault, char[] passphrase) throws VaultException {
        try {
            vault.beginUnlock();
            notifyListeners();
            try {
                UnlockedSession session = openAndMount(vault, passphrase);
                vault.unlocked(session);
            } catch (VaultException e) {
                vault.unlockFailed(e);
                throw e;
            } catch (IOException | RuntimeException e) {
                VaultException wrapped = new VaultException(Problem.OTHER, describe(e), e);
                vault.unlockFailed(wrapped);
                throw wrapped;
            } finally {
                notifyListeners();
            }
        } finally {
            Arrays.fill(passphrase, '\0');
        }
    }

    private UnlockedSession openAndMount(ManagedVault vault, char[] passphrase) throws IOException {
        VaultSettings settings = vault.settings();
        Path folder = settings.folderPath();
        if (!Files.isDirectory(folder)) {
            throw new VaultException(Problem.FOLDER_MISSING, folder.toString());
        }
        if (!VaultAccess.isVault(folder)) {
            throw new VaultException(Problem.NOT_A_VAULT, folder.toString());
        }
        if (HealthCheck.inRepair(folder)) {
            throw new VaultException(Problem.IN_REPAIR, folder.toString()); // by this process: core's lock cannot tell
        }
        Mounter mounter = mounters.choose(settings.mountMethod()); // before scrypt: say what to install first
        Path mountPoint = mountPoint(settings);
        if (dev.coffer.fuse.MountPaths.isInside(mountPoint, folder)) { // by real paths: a link must not hide it
            throw new VaultException(Problem.MOUNT_POINT_BUSY, mountPoint + " is inside the vault folder");
        }
        CofferFileSystem fs;
        try {
            fs = CofferFileSystems.open(folder, Arrays.copyOf(passphrase, passphrase.length), settings.readOnly());
        } catch (InvalidPassphraseException | VaultFormatException e) {
            throw CoreFailures.translate(e);
        }
        // before the drive exists: no program can have a file open in it earlier
        fs.onConflictCopies(copy -> conflictCopyListeners.forEach(l -> {
            try {
                l.accept(vault, copy);
            } catch (RuntimeException e) { // one that fails silences no other; the type only (a message may name the file)
                LOG.warn("a listener of conflict copies failed ({})", e.getClass().getName());
            }
        }));
        VaultUseLock inUse = null;
        try {
            // held while unlocked, so that coffer check --repair refuses meanwhile (taken after core read vault.coffer)
            try {
                inUse = VaultUseLock.forUse(folder);
            } catch (dev.coffer.core.health.VaultOpenElsewhereException e) {
                throw new VaultException(Problem.OPEN_ELSEWHERE, folder.toString(), e);
            }
            if (inUse == null) {
                throw new VaultException(Problem.IN_REPAIR, folder.toString());
            }
            if (mountPoint.getParent() != null) { // a drive letter has none
                Files.createDirectories(mountPoint.getParent());
            }
            // core opens a vault whose folder cannot be written read-only (a storage warning says so): so is the drive
            Drive drive = mounter.mount(fs.getPath("/"), new MountRequest(settings.name(), mountPoint, fs.isReadOnly(),
                    preferences.webDavPort()));
            return new UnlockedSession(fs, drive, inUse, clock.instant());
        } catch (IOException | RuntimeException e) {
            fs.close();
            if (inUse != null) {
                inUse.close();
            }
            throw e;
        }
    }

    /** The mount point the vault asks for, or a folder named after it in the default place. */
    public Path mountPoint(VaultSettings settings) {
        if (!settings.mountPoint().isBlank()) {
            String asked = settings.mountPoint().strip();
            if (DRIVE_LETTER.matcher(asked).matches()) {
                return Path.of(asked); // as given: WinFsp takes it (elsewhere the FUSE frontend refuses it clearly)
            }
            return Path.of(asked).toAbsolutePath().normalize();
        }
        String safe = settings.name().replaceAll("[/\\\\\\x00]", "_").strip();
        return defaultMountFolder.resolve(safe.isEmpty() || safe.startsWith(".") ? "vault-" + settings.id() : safe);
    }

    /**
     * Unmounts and closes the file system. Without {@code force}, a drive with open files throws
     * {@link Problem#DRIVE_BUSY} and the vault stays unlocked, so the UI can offer to force it.
     */
    public void lock(ManagedVault vault, boolean force) throws VaultException {
        UnlockedSession session = vault.beginLock();
        notifyListeners();
        try {
            session.drive().unmount(force);
        } catch (IOException | RuntimeException e) {
            vault.lockFailed();
            notifyListeners();
            throw e instanceof VaultException ve ? ve : new VaultException(Problem.OTHER, describe(e), e);
        }
        closeQuietly(session);
        vault.locked();
        notifyListeners();
    }

    /** Locks every unlocked vault (quit, tray); returns the ones that stayed unlocked (busy without force). */
    public List<ManagedVault> lockAll(boolean force) {
        return List.copyOf(lockAllSayingWhy(force).keySet());
    }

    /**
     * Locks every unlocked vault; returns the ones that stayed unlocked, in list order, each with
     * why ({@link Problem#DRIVE_BUSY} without force, or the failure).
     */
    public Map<ManagedVault, VaultException> lockAllSayingWhy(boolean force) {
        Map<ManagedVault, VaultException> stayed = new LinkedHashMap<>();
        for (ManagedVault v : vaults) {
            if (v.state() == VaultState.UNLOCKED) {
                try {
                    lock(v, force);
                } catch (VaultException e) {
                    stayed.put(v, e);
                }
            }
        }
        return stayed;
    }

    /** Locks vaults whose drive went away without the app (unmounted from a terminal or the file manager). */
    public void lockVanishedDrives() {
        for (ManagedVault v : vaults) {
            Optional<Drive> d = v.drive();
            if (v.state() == VaultState.UNLOCKED && d.isPresent() && !d.get().isMounted()) {
                try {
                    lock(v, false);
                } catch (VaultException | IllegalStateException e) {
                    LOG.debug("locking a vault whose drive vanished failed: {}", e.getClass().getSimpleName());
                }
            }
        }
    }

    private static void closeQuietly(UnlockedSession session) {
        try {
            session.fileSystem().close();
        } catch (IOException e) {
            LOG.warn("closing the vault's file system failed: {}", e.getClass().getSimpleName());
        }
        try {
            session.releaseInUse();
        } catch (IOException e) {
            LOG.warn("releasing the vault's in-use lock failed: {}", e.getClass().getSimpleName());
        }
    }

    private static void requireMissingOrEmpty(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        if (!Files.isDirectory(folder)) {
            throw new VaultException(Problem.FOLDER_NOT_EMPTY, folder.toString());
        }
        try (Stream<Path> s = Files.list(folder)) {
            if (s.findAny().isPresent()) {
                throw new VaultException(Problem.FOLDER_NOT_EMPTY, folder.toString());
            }
        }
    }

    static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private synchronized void saveAndNotify() throws IOException {
        store.save(new Settings(vaults.stream().map(ManagedVault::settings).toList(), preferences));
        notifyListeners();
    }

    void notifyListeners() {
        listeners.forEach(Runnable::run);
    }
}
