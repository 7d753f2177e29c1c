package dev.coffer.core.nio;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.Slot;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A cleartext path resolved against the vault: the folder it lives in, the slot its name maps to,
 * and the entry found there (null if nothing is). The root has no parent and no slot.
 *
 * @param entryAttributes the attributes of the entry's on-disk item as the lookup read them (for this
 *                        one operation; null when not read), so a stat does not read them again
 * @param cacheGeneration the mapper's cache generation taken before the lookup (-1: unknown), so that
 *                        the folder a located folder points to may be cached ({@code PathMapper.open})
 */
record Located(CofferPath path, CiphertextDirectory parent, Slot slot, Entry entry, BasicFileAttributes entryAttributes,
               long cacheGeneration) {

    Located(CofferPath path, CiphertextDirectory parent, Slot slot, Entry entry) {
        this(path, parent, slot, entry, null, -1);
    }

    boolean isRoot() {
        return slot == null;
    }

    boolean exists() {
        return isRoot() || entry != null;
    }

    String display() {
        return path.toString();
    }
}
