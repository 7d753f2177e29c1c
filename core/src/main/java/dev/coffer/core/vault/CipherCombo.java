package dev.coffer.core.vault;

/**
 * The content mode of a vault (spec 2.2 claim {@code cipherCombo}, spec 5.3), chosen at creation.
 * Names only the mode; the content layer owns what each mode means.
 */
public enum CipherCombo {
    /** Authenticated, per-unit nonce and HMAC tag (the default). */
    SIV_XTSHMAC,
    /** Length-preserving, disk-encryption semantics. */
    SIV_XTS
}
