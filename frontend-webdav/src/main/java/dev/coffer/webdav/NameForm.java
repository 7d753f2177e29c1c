package dev.coffer.webdav;

import java.text.Normalizer;

/**
 * The Unicode form in which names are shown to one client: NFC inside and for everybody, except
 * macOS Finder's WebDAV client ({@code User-Agent} containing {@code WebDAVFS}), which expects the
 * decomposed names of HFS+ and gets NFD in PROPFIND hrefs and display names.
 *
 * <p>Not responsible for normalising incoming names ({@link DavPath} turns them into NFC).
 */
enum NameForm {
    NFC, NFD;

    static NameForm forUserAgent(String userAgent) {
        return userAgent != null && userAgent.contains("WebDAVFS") ? NFD : NFC;
    }

    String present(String nfcName) {
        return this == NFD ? Normalizer.normalize(nfcName, Normalizer.Form.NFD) : nfcName;
    }
}
