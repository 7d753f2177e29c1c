package dev.coffer.core.health;

import java.util.Comparator;
import java.util.List;

/**
 * The result of one health check: every finding, sorted by ciphertext path, and the repairs that
 * {@link VaultHealth#repair} would make. Immutable.
 */
public record HealthReport(List<Finding> findings, List<PlannedRepair> repairs) {
    public HealthReport {
        findings = findings.stream()
                .sorted(Comparator.comparing(Finding::ciphertextPath).thenComparing(f -> f.kind().name()))
                .toList();
        repairs = List.copyOf(repairs);
    }

    /** True if nothing worse than {@link Severity#INFO} was found. */
    public boolean healthy() {
        return findings.stream().noneMatch(f -> f.severity() != Severity.INFO);
    }

    /** The findings of {@code kind}. */
    public List<Finding> ofKind(FindingKind kind) {
        return findings.stream().filter(f -> f.kind() == kind).toList();
    }

    public long count(Severity severity) {
        return findings.stream().filter(f -> f.severity() == severity).count();
    }
}
