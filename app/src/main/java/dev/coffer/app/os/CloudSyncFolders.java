package dev.coffer.app.os;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the cloud-sync folders on this machine (Dropbox, Nextcloud, ownCloud, OneDrive, Google
 * Drive, pCloud, Syncthing, iCloud Drive), looking where their clients put them by default under
 * the home folder, so the create wizard can offer them first.
 *
 * <p>Not responsible for asking the sync clients (their config formats differ and change); a folder
 * somewhere else is still one "Choose..." away.
 */
public final class CloudSyncFolders {
    /** A sync folder found: the service's name and the folder. */
    public record Found(String service, Path folder) {}

    private static final List<Found> CANDIDATES = List.of(
            new Found("Dropbox", Path.of("Dropbox")),
            new Found("Nextcloud", Path.of("Nextcloud")),
            new Found("ownCloud", Path.of("ownCloud")),
            new Found("OneDrive", Path.of("OneDrive")),
            new Found("Google Drive", Path.of("Google Drive")),
            new Found("Google Drive", Path.of("GoogleDrive")),
            new Found("pCloud", Path.of("pCloudDrive")),
            new Found("Syncthing", Path.of("Sync")),
            new Found("iCloud Drive", Path.of("iCloudDrive")),
            new Found("iCloud Drive", Path.of("Library", "Mobile Documents", "com~apple~CloudDocs")));

    private CloudSyncFolders() {}

    /** The sync folders that exist under {@code home}, in a fixed order; Dropbox for Business style "Dropbox (Team)" too. */
    public static List<Found> find(Path home) {
        List<Found> found = new ArrayList<>();
        for (Found c : CANDIDATES) {
            Path p = home.resolve(c.folder());
            if (Files.isDirectory(p)) {
                found.add(new Found(c.service(), p));
            }
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(home, "Dropbox (*)")) {
            for (Path p : s) {
                if (Files.isDirectory(p)) {
                    found.add(new Found("Dropbox", p));
                }
            }
        } catch (IOException e) {
            // an unreadable home: nothing found
        }
        return found;
    }
}
