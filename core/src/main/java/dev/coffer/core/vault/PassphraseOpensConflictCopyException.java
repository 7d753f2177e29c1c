package dev.coffer.core.vault;

/**
 * The passphrase does not open the masterkey file in use, but it opens a sync-conflict copy of it
 * that belongs to this vault (its key signs {@code vault.coffer}): most likely the passphrase was
 * changed on another device and the sync kept both files (spec 2.1). Not a wrong passphrase, and not
 * resolved automatically: the user decides which file stays. The message names the files, never the
 * passphrase.
 */
public class PassphraseOpensConflictCopyException extends VaultFormatException {
    private static final long serialVersionUID = 1L;

    private final String copyName;

    public PassphraseOpensConflictCopyException(String masterkeyName, String copyName) {
        super("this passphrase does not open " + masterkeyName + " but opens its sync-conflict copy " + copyName
                + " (the passphrase was probably changed on another device). Nothing was changed: unlock with the"
                + " passphrase " + masterkeyName + " has, or keep a copy of " + masterkeyName + " and rename " + copyName
                + " to " + masterkeyName);
        this.copyName = copyName;
    }

    /** The conflict copy the passphrase opens, a file name in the vault root. */
    public String copyName() {
        return copyName;
    }
}
