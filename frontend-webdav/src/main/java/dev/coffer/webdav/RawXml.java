package dev.coffer.webdav;

/**
 * A property value that is already XML (dead property values as the client sent them, the lock
 * properties), using the prefix {@code D} for {@code DAV:}; {@link MultistatusWriter} writes it as is.
 *
 * <p>Not responsible for checking the XML: it was parsed before it was stored.
 */
record RawXml(String xml) {
}
