package dev.coffer.app.ui;

import dev.coffer.app.os.FileManager;
import dev.coffer.app.os.PassphraseStore;
import dev.coffer.app.vaults.VaultService;
import java.nio.file.Path;

/**
 * What the views need from the rest of the app, made once at startup (and by tests with temp
 * folders and a recording file manager).
 *
 * @param service     the vaults
 * @param messages    the UI strings in the chosen language
 * @param fileManager reveals drives and the log file
 * @param background  runs long work off the FX thread
 * @param home        the person's home folder (cloud-sync folders are looked for there)
 * @param logFile     the log file ("Reveal log file" in the preferences)
 * @param keyring     where passphrases may be remembered (the system keyring, or none)
 */
public record GuiContext(VaultService service, Messages messages, FileManager fileManager, Background background, Path home,
        Path logFile, PassphraseStore keyring) {}
