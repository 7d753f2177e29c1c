package dev.coffer.core.nio;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.Entry;
import dev.coffer.core.names.Slot;

/**
 * A cleartext path resolved against the vault: the folder it lives in, the slot its name maps to,
 * and the entry found there (null if nothing is). The root has no parent and no slot.
 */
record Located(CofferPath path, CiphertextDirectory parent, Slot slot, Entry entry) {

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
