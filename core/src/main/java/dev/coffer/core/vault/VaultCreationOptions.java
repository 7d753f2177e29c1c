package dev.coffer.core.vault;

import java.util.Objects;

/**
 * Options for creating a vault; defaults: SIV_XTSHMAC, scrypt N=2^17 r=8 p=1, threshold 220.
 * Refuses values that the vault format (spec 2.1, 2.2) would make a reader refuse; r and p are not
 * options, a new vault always uses r = 8 and p = 1.
 *
 * @param cipherCombo         the content mode
 * @param scryptCostParam     scrypt N: a power of two from 2^14 to 2^20 (N * 8 must stay within 2^23)
 * @param shorteningThreshold 36 to 220
 */
public record VaultCreationOptions(CipherCombo cipherCombo, int scryptCostParam, int shorteningThreshold) {
    public VaultCreationOptions {
        Objects.requireNonNull(cipherCombo, "cipherCombo");
        if (Integer.bitCount(scryptCostParam) != 1
                || scryptCostParam < ScryptParams.MIN_N
                || (long) scryptCostParam * ScryptParams.DEFAULT_R > ScryptParams.MAX_NR) {
            throw new IllegalArgumentException(
                    "scrypt N = " + scryptCostParam + " must be a power of two from 2^14 to 2^20");
        }
        if (shorteningThreshold < VaultConfigJwt.MIN_THRESHOLD || shorteningThreshold > VaultConfigJwt.MAX_THRESHOLD) {
            throw new IllegalArgumentException("shorteningThreshold " + shorteningThreshold + " outside 36..220");
        }
    }

    /** SIV_XTSHMAC, N = 2^17, threshold 220. */
    public static VaultCreationOptions defaults() {
        return new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, ScryptParams.DEFAULT_N, VaultConfigJwt.MAX_THRESHOLD);
    }
}
