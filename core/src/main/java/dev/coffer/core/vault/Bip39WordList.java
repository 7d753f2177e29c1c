package dev.coffer.core.vault;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The BIP-39 English word list in index order (shipped as a resource, a copy of
 * {@code shared/data/bip39-english.txt}) and the word lookup of spec 2.4: an exact word, or a token
 * of at least four letters whose first four select the unique word with that prefix.
 *
 * <p>Not responsible for tokenising or bit packing ({@link RecoveryKey}).
 */
final class Bip39WordList {
    static final int SIZE = 2048;
    private static final int PREFIX = 4;
    /** Result of {@link #indexOf} for a token that selects no word or more than one. */
    static final int NO_MATCH = -1;

    private final List<String> words;
    private final Map<String, Integer> exact = new HashMap<>();

    Bip39WordList(List<String> words) {
        this.words = List.copyOf(words);
        for (int i = 0; i < words.size(); i++) {
            exact.put(words.get(i), i);
        }
    }

    /** The list shipped with Coffer. */
    static Bip39WordList english() {
        return EnglishHolder.ENGLISH;
    }

    String word(int index) {
        return words.get(index);
    }

    int size() {
        return words.size();
    }

    /** The index a lower-case token selects, or {@link #NO_MATCH}. */
    int indexOf(String token) {
        Integer i = exact.get(token);
        if (i != null) {
            return i;
        }
        if (token.codePointCount(0, token.length()) < PREFIX) {
            return NO_MATCH;
        }
        String prefix = token.substring(0, token.offsetByCodePoints(0, PREFIX));
        int found = NO_MATCH;
        for (int w = 0; w < words.size(); w++) {
            if (words.get(w).startsWith(prefix)) {
                if (found != NO_MATCH) {
                    return NO_MATCH;
                }
                found = w;
            }
        }
        return found;
    }

    /** Loaded on first use; a missing or damaged resource is a build error. */
    private static final class EnglishHolder {
        static final Bip39WordList ENGLISH = load();

        private static Bip39WordList load() {
            try (InputStream in = Bip39WordList.class.getResourceAsStream("bip39-english.txt")) {
                if (in == null) {
                    throw new IllegalStateException("bip39-english.txt missing from the class path");
                }
                List<String> words = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
                if (words.size() != SIZE || words.stream().distinct().count() != SIZE) {
                    throw new IllegalStateException("bip39-english.txt must hold 2048 distinct words");
                }
                return new Bip39WordList(words);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
