package dev.coffer.webdav;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The parsed {@code If} header of RFC 4918 section 10.4: tagged or untagged lists of conditions,
 * each a state token ({@code <opaquelocktoken:...>}) or an entity tag ({@code ["..."]}), optionally
 * negated with {@code Not}.
 *
 * <p>Not responsible for evaluating the conditions ({@link Preconditions}).
 */
record IfHeader(List<ConditionList> lists) {

    /** One parenthesised list; {@code resourceTag} is null for an untagged list. */
    record ConditionList(String resourceTag, List<Condition> conditions) {}

    /** One condition: exactly one of {@code stateToken} and {@code entityTag} is set. */
    record Condition(boolean not, String stateToken, String entityTag) {}

    /** Thrown for a header that does not follow the grammar (answered with 400). */
    static final class MalformedException extends Exception {
        private static final long serialVersionUID = 1L;

        MalformedException(String message) {
            super(message);
        }
    }

    /** The state tokens that appear un-negated anywhere in the header: the lock tokens the client submits. */
    Set<String> submittedTokens() {
        Set<String> out = new LinkedHashSet<>();
        for (ConditionList l : lists) {
            for (Condition c : l.conditions()) {
                if (c.stateToken() != null) {
                    out.add(c.stateToken());
                }
            }
        }
        return out;
    }

    static IfHeader parse(String header) throws MalformedException {
        List<ConditionList> lists = new ArrayList<>();
        String s = header;
        int i = 0;
        String tag = null;
        boolean sawTagged = false;
        boolean sawUntagged = false;
        while (true) {
            i = skipSpace(s, i);
            if (i >= s.length()) {
                break;
            }
            char c = s.charAt(i);
            if (c == '<') {
                int end = s.indexOf('>', i);
                if (end < 0) {
                    throw new MalformedException("unterminated resource tag");
                }
                tag = s.substring(i + 1, end);
                sawTagged = true;
                i = end + 1;
                int next = skipSpace(s, i);
                if (next >= s.length() || s.charAt(next) != '(') {
                    throw new MalformedException("resource tag without a list");
                }
            } else if (c == '(') {
                if (tag == null) {
                    sawUntagged = true;
                }
                int end = s.indexOf(')', i);
                if (end < 0) {
                    throw new MalformedException("unterminated list");
                }
                lists.add(new ConditionList(tag, parseConditions(s.substring(i + 1, end))));
                i = end + 1;
            } else {
                throw new MalformedException("unexpected character in If header");
            }
        }
        if (lists.isEmpty() || (sawTagged && sawUntagged)) {
            throw new MalformedException("empty If header or tagged and untagged lists mixed");
        }
        return new IfHeader(List.copyOf(lists));
    }

    private static List<Condition> parseConditions(String s) throws MalformedException {
        List<Condition> out = new ArrayList<>();
        int i = 0;
        while (true) {
            i = skipSpace(s, i);
            if (i >= s.length()) {
                break;
            }
            boolean not = false;
            if (s.regionMatches(true, i, "Not", 0, 3)) {
                not = true;
                i = skipSpace(s, i + 3);
                if (i >= s.length()) {
                    throw new MalformedException("Not without a condition");
                }
            }
            char c = s.charAt(i);
            if (c == '<') {
                int end = s.indexOf('>', i);
                if (end < 0) {
                    throw new MalformedException("unterminated state token");
                }
                out.add(new Condition(not, s.substring(i + 1, end), null));
                i = end + 1;
            } else if (c == '[') {
                int end = s.indexOf(']', i);
                if (end < 0) {
                    throw new MalformedException("unterminated entity tag");
                }
                out.add(new Condition(not, null, s.substring(i + 1, end).trim()));
                i = end + 1;
            } else {
                throw new MalformedException("unexpected character in condition list");
            }
        }
        if (out.isEmpty()) {
            throw new MalformedException("empty condition list");
        }
        return List.copyOf(out);
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }
}
