package dev.coffer.core.health;

/**
 * How bad a health-check finding is. {@link #INFO} never makes a vault unhealthy (litter that
 * readers ignore anyway); {@link #WARNING} is a structural problem that loses nothing by itself
 * and is often repairable; {@link #ERROR} means data cannot be read as it was written.
 */
public enum Severity {
    INFO,
    WARNING,
    ERROR
}
