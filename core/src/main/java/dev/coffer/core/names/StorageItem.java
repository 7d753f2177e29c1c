package dev.coffer.core.names;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** One name in a storage folder and, where the system's listing told it, what it is. */
record StorageItem(String name, Kind kind) {
    /** FILE and FOLDER as the listing saw them; UNKNOWN: the listing did not say (ask the file). */
    enum Kind { FILE, FOLDER, OTHER, UNKNOWN }

    private static final Comparator<StorageItem> BY_NAME = Comparator.comparing(StorageItem::name, Utf8Order.COMPARATOR);

    /** The folder's items sorted by their names' UTF-8 bytes; types where the system gives them with the names. */
    static List<StorageItem> sorted(Path folder) throws IOException {
        List<StorageItem> items = LinuxDirents.read(folder);
        if (items == null) {
            items = throughJdk(folder);
        }
        items.sort(BY_NAME);
        return items;
    }

    /** {@link #sorted}, names only, as Java's directory stream gives them: every kind UNKNOWN. */
    static List<StorageItem> sortedThroughJdk(Path folder) throws IOException {
        List<StorageItem> items = throughJdk(folder);
        items.sort(BY_NAME);
        return items;
    }

    private static List<StorageItem> throughJdk(Path folder) throws IOException {
        List<StorageItem> items = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            for (Path p : ds) {
                items.add(new StorageItem(p.getFileName().toString(), Kind.UNKNOWN));
            }
        }
        return items;
    }
}
