package dev.coffer.fuse;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The Unicode form in which a mount shows names to programs. The vault stores every name in NFC;
 * macOS Finder expects NFD (what HFS+ stored), so a mount on macOS lists names in NFD and a lookup in
 * either form finds the entry. Linux programs expect names byte-for-byte as created, so there the
 * mount shows the stored NFC names unchanged.
 *
 * <p>Not responsible for how the backing stores names: {@link #NFD} assumes that the backing
 * normalises looked-up names to NFC itself (the vault does; a plain folder may not).
 */
public enum NameForm {
    /** Names as stored (NFC in a vault). */
    NFC,
    /** Names decomposed, as macOS Finder expects. */
    NFD;

    /** NFD on macOS, NFC everywhere else. */
    public static NameForm platformDefault() {
        return forOs(System.getProperty("os.name", ""));
    }

    static NameForm forOs(String osName) {
        return osName.toLowerCase(Locale.ROOT).startsWith("mac") ? NFD : NFC;
    }

    /** {@code storedName} as programs see it. */
    String present(String storedName) {
        if (this == NFC || Normalizer.isNormalized(storedName, Normalizer.Form.NFD)) {
            return storedName;
        }
        return Normalizer.normalize(storedName, Normalizer.Form.NFD);
    }
}
