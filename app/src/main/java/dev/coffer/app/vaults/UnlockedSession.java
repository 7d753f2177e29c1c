package dev.coffer.app.vaults;

import dev.coffer.core.nio.CofferFileSystem;
import java.time.Instant;

/**
 * What an unlocked vault holds: its open file system (the keys), the drive showing it, and when it
 * was unlocked (auto-lock counts idle time from there).
 *
 * @param fileSystem the vault's cleartext file system, closed on lock
 * @param drive      the mounted drive, unmounted on lock before the file system closes
 * @param unlockedAt when unlocking finished
 */
record UnlockedSession(CofferFileSystem fileSystem, Drive drive, Instant unlockedAt) {}
