package dev.coffer.core.nio;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.DamagedEntryException;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.Listing;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;

/** Lists a cleartext folder: decodes its storage folder and resolves sync conflicts found there (spec 6). */
final class FolderReader {
    private FolderReader() {}

    static List<Entry> entries(CofferFileSystem fs, Located l) throws IOException {
        CiphertextDirectory dir = fs.resolver.directoryOf(l);
        Listing listing;
        try {
            listing = fs.lister.list(dir);
        } catch (NoSuchFileException e) {
            throw new DamagedEntryException(l.display(), "the folder's storage is missing");
        }
        if (!l.isRoot()) {
            // Just read afresh and listed: lookups below it can start from it (see PathMapper.remember).
            fs.mapper.remember(l.path().nfcNames(), l.entry(), dir, l.cacheGeneration());
        }
        if (!listing.hasConflicts()) {
            fs.mapper.rememberListed(dir, listing.entries(), false);
            return listing.entries();
        }
        // Resolving renames and removes entries on disk: one structural change at a time.
        List<Entry> resolved = fs.structurally(() -> fs.conflicts.resolve(fs.lister.list(dir)));
        fs.mapper.rememberListed(dir, resolved, fs.isReadOnly());
        return resolved;
    }
}
