package dev.coffer.core.health;

/**
 * One problem the health check found, as the CLI prints it and a GUI can show it.
 *
 * @param kind           what is wrong
 * @param severity       how bad it is (usually the kind's; foreign dot-files are only {@link Severity#INFO})
 * @param cleartextPath  the cleartext path concerned, or null if it cannot be named (an orphan, an
 *                       undecryptable name); inside an orphan folder, the path it gets once adopted
 *                       into {@code /LOST+FOUND}
 * @param ciphertextPath the on-disk path relative to the vault folder, with {@code /} separators
 * @param detail         what exactly was found, for people
 * @param repairable     true if {@code --repair} fixes it
 */
public record Finding(FindingKind kind, Severity severity, String cleartextPath, String ciphertextPath, String detail,
                      boolean repairable) {}
