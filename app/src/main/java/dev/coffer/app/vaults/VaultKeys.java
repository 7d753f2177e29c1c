package dev.coffer.app.vaults;

import dev.coffer.core.util.NotDurableException;
import dev.coffer.core.vault.VaultAccess;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The passphrase operations of the vault options: change the passphrase, show the recovery key,
 * reset the passphrase with the recovery key. Each works on the vault's files whether it is locked
 * or not (the master key does not change, so an unlocked drive keeps working). Every passphrase
 * array handed in is wiped before the method returns. Reading vault.coffer drops an unlocked
 * vault's in-use lock (a POSIX lock), so each operation takes it again.
 *
 * <p>Not responsible for unlocking or the vault list ({@link VaultService}).
 */
public final class VaultKeys {
    private VaultKeys() {}

    /**
     * @return true once the new passphrase is saved for good; false if it is in force but the disk
     *         reported an error making it durable (after a crash the previous one may be needed)
     */
    public static boolean changePassphrase(ManagedVault vault, char[] oldPassphrase, char[] newPassphrase)
            throws VaultException {
        try {
            VaultAccess.changePassphrase(vault.settings().folderPath(), oldPassphrase, newPassphrase);
            return true;
        } catch (NotDurableException changedAnyway) {
            return false;
        } catch (IOException e) {
            throw translate(e);
        } finally {
            Arrays.fill(oldPassphrase, '\0');
            Arrays.fill(newPassphrase, '\0');
            vault.session().ifPresent(UnlockedSession::renewInUse);
        }
    }

    /** The 48 words; the caller shows them and drops them. */
    public static List<String> recoveryKey(ManagedVault vault, char[] passphrase) throws VaultException {
        try {
            return VaultAccess.recoveryKey(vault.settings().folderPath(), passphrase);
        } catch (IOException e) {
            throw translate(e);
        } finally {
            Arrays.fill(passphrase, '\0');
            vault.session().ifPresent(UnlockedSession::renewInUse);
        }
    }

    /** As {@link #changePassphrase}: false if the new passphrase is in force but not known to be durable. */
    public static boolean resetPassphrase(ManagedVault vault, String recoveryWords, char[] newPassphrase)
            throws VaultException {
        try {
            VaultAccess.resetPassphrase(vault.settings().folderPath(), recoveryWords, newPassphrase);
            return true;
        } catch (NotDurableException changedAnyway) {
            return false;
        } catch (IOException e) {
            throw translate(e);
        } finally {
            Arrays.fill(newPassphrase, '\0');
            vault.session().ifPresent(UnlockedSession::renewInUse);
        }
    }

    private static VaultException translate(IOException e) {
        return CoreFailures.translate(e);
    }
}
