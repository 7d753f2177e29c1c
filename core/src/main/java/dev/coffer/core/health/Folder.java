package dev.coffer.core.health;

import dev.coffer.core.names.CiphertextDirectory;

/** A folder the health check walks: where it is stored, and the cleartext path to show for it. */
record Folder(CiphertextDirectory dir, String cleartextPath) {

    /** The cleartext path of child {@code name}. */
    String child(String name) {
        return cleartextPath.equals("/") ? "/" + name : cleartextPath + "/" + name;
    }
}
