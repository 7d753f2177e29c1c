package dev.coffer.core.vault;

/**
 * The claims of {@code vault.coffer} (spec 2.2) as they were verified when the vault was opened.
 * A plain value: it neither validates nor signs itself ({@code VaultConfigJwt} does both).
 *
 * @param format              the vault format, 1
 * @param cipherCombo         the content mode
 * @param shorteningThreshold names longer than this many characters are shortened (36 to 220)
 * @param sectorSize          plaintext bytes per data unit, 4096 in format 1
 * @param jti                 the vault's identity, a lower-case UUID
 */
public record VaultConfig(int format, CipherCombo cipherCombo, int shorteningThreshold, int sectorSize, String jti) {}
