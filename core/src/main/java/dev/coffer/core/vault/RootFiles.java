package dev.coffer.core.vault;

/**
 * The canonical root files of a vault as they were read for one opening: the bytes exactly as
 * stored (to compare conflict copies and to back up the masterkey file) and their parsed forms.
 *
 * @param masterkeyName  the masterkey file named by vault.coffer's kid
 * @param masterkeyBytes that file's bytes
 * @param masterkey      that file, parsed and validated
 * @param vaultBytes     vault.coffer's bytes
 * @param vaultJwt       vault.coffer, parsed (header checked)
 */
record RootFiles(String masterkeyName, byte[] masterkeyBytes, MasterkeyFile masterkey,
                 byte[] vaultBytes, VaultConfigJwt vaultJwt) {}
