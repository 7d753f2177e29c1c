package dev.coffer.core.names;

import java.nio.file.attribute.BasicFileAttributes;

/**
 * An entry a lookup found, with the attributes of its on-disk entry read (without following links)
 * by that same lookup, so a caller that needs them does not read them a second time. Not a cache:
 * it lives as long as the one operation that asked.
 *
 * @param entry            the entry found
 * @param entryAttributes  the attributes of {@link Entry#entryPath()}, or null when the lookup
 *                         found the entry elsewhere (an alias remembered from a listing)
 */
public record Found(Entry entry, BasicFileAttributes entryAttributes) {}
