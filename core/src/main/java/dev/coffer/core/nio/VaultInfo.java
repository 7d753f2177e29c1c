package dev.coffer.core.nio;

import java.util.List;

/**
 * What an open vault is: identity, content mode, shortening threshold, and warnings from opening
 * (e.g. sync-conflict copies of its root files).
 *
 * @param authenticated true for SIV_XTSHMAC, false for SIV_XTS
 */
public record VaultInfo(String jti, String cipherCombo, boolean authenticated, int shorteningThreshold, List<String> warnings) {}
