package dev.coffer.app.vaults;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What the app remembers about one vault in its list (saved in settings.json): its name and folder,
 * and the person's options for it. Immutable; the {@code with...} methods return changed copies.
 *
 * <p>Not responsible for the vault's own files (core) or for its current state ({@link ManagedVault}).
 *
 * @param id                a random identifier that stays the same when the vault is renamed or moved
 * @param name              shown in the list, and the name of the drive
 * @param folder            the vault folder (the one holding vault.coffer), absolute
 * @param mountMethod       how to show it when unlocked
 * @param mountPoint        where to mount it (empty: a folder named after the vault in the default place)
 * @param readOnly          mount read-only
 * @param autoLockMinutes   lock after this many idle minutes (0: never)
 * @param unlockAtStartup   unlock when the app starts, with the passphrase saved in the system keyring
 * @param revealAfterUnlock open the drive in the file manager after unlocking
 */
public record VaultSettings(String id, String name, String folder, MountMethod mountMethod, String mountPoint,
        boolean readOnly, int autoLockMinutes, boolean unlockAtStartup, boolean revealAfterUnlock) {
    public VaultSettings {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(folder, "folder");
        mountMethod = mountMethod == null ? MountMethod.AUTO : mountMethod;
        mountPoint = mountPoint == null ? "" : mountPoint;
        if (autoLockMinutes < 0) {
            throw new IllegalArgumentException("autoLockMinutes must not be negative");
        }
    }

    /** A vault just added to the list, with the app's defaults. */
    public static VaultSettings added(String id, String name, Path folder, Preferences defaults) {
        return new VaultSettings(id, name, folder.toAbsolutePath().normalize().toString(), defaults.defaultMountMethod(), "",
                false, defaults.autoLockMinutesDefault(), false, true);
    }

    @JsonIgnore
    public Path folderPath() {
        return Path.of(folder);
    }

    public VaultSettings withName(String newName) {
        return new VaultSettings(id, newName, folder, mountMethod, mountPoint, readOnly, autoLockMinutes, unlockAtStartup,
                revealAfterUnlock);
    }

    public VaultSettings withMount(MountMethod method, String point, boolean ro) {
        return new VaultSettings(id, name, folder, method, point, ro, autoLockMinutes, unlockAtStartup, revealAfterUnlock);
    }

    public VaultSettings withAutoLockMinutes(int minutes) {
        return new VaultSettings(id, name, folder, mountMethod, mountPoint, readOnly, minutes, unlockAtStartup,
                revealAfterUnlock);
    }

    public VaultSettings withUnlockAtStartup(boolean unlock) {
        return new VaultSettings(id, name, folder, mountMethod, mountPoint, readOnly, autoLockMinutes, unlock,
                revealAfterUnlock);
    }

    public VaultSettings withRevealAfterUnlock(boolean reveal) {
        return new VaultSettings(id, name, folder, mountMethod, mountPoint, readOnly, autoLockMinutes, unlockAtStartup,
                reveal);
    }
}
