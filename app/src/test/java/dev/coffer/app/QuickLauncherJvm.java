package dev.coffer.app;

import java.util.Map;

/**
 * JVM options for the {@code coffer} processes of the integration tests whose subject is what a
 * command does (mount, serve, stop, survive a kill), not how fast it is: C1 only, and no crypto
 * warm-up at unlock ({@code coffer.warmup.units}, docs/performance.md). Such a process lives
 * seconds, in which C2 compiles start-up code it soon leaves and the warm-up spends up to 3 CPU-s
 * preparing C2 code for gigabytes that never come: a {@code coffer ls} took ~1.0 CPU-s instead of
 * ~2.1 (2 cores under load), which CI's two cores feel in every test. The launcher's own options
 * stay ({@code COFFER_JAVA_OPTS} comes after them); LauncherIT runs it as shipped.
 */
final class QuickLauncherJvm {
    static final String OPTS = "-XX:TieredStopAtLevel=1 -Dcoffer.warmup.units=0";

    private QuickLauncherJvm() {}

    /** Sets {@code COFFER_JAVA_OPTS} in {@code environment} (a process builder's) to {@link #OPTS}. */
    static void use(Map<String, String> environment) {
        environment.put("COFFER_JAVA_OPTS", OPTS);
    }
}
