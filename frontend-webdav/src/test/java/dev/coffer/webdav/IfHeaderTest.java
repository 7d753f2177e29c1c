package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The If header grammar of RFC 4918 10.4: tagged and untagged lists, Not, entity tags, errors. */
class IfHeaderTest {
    @Test
    void untaggedListsWithNotAndEtags() throws Exception {
        IfHeader h = IfHeader.parse("(<opaquelocktoken:a> [\"e1\"]) (Not <DAV:no-lock> [W/\"e2\"])");
        assertThat(h.lists()).hasSize(2);
        assertThat(h.lists().get(0).resourceTag()).isNull();
        assertThat(h.lists().get(0).conditions()).containsExactly(new IfHeader.Condition(false, "opaquelocktoken:a", null),
                new IfHeader.Condition(false, null, "\"e1\""));
        assertThat(h.lists().get(1).conditions().get(0)).isEqualTo(new IfHeader.Condition(true, "DAV:no-lock", null));
        assertThat(h.submittedTokens()).containsExactly("opaquelocktoken:a", "DAV:no-lock");
    }

    @Test
    void taggedLists() throws Exception {
        IfHeader h = IfHeader.parse("<http://127.0.0.1:1/s/a> (<opaquelocktoken:a>) <http://127.0.0.1:1/s/b> (<opaquelocktoken:b>) (Not [\"x\"])");
        assertThat(h.lists()).extracting(IfHeader.ConditionList::resourceTag)
                .containsExactly("http://127.0.0.1:1/s/a", "http://127.0.0.1:1/s/b", "http://127.0.0.1:1/s/b");
    }

    @Test
    void malformedHeadersAreRefused() {
        for (String bad : new String[] {"", "   ", "(", "()", "(<a>", "<a>", "x", "(<a>) <b>", "(Not)", "([\"x\")", "<t> (<a>) (<b>) junk",
            "(<a>) <http://h/p> (<b>)"}) {
            assertThatThrownBy(() -> IfHeader.parse(bad)).as(bad).isInstanceOf(IfHeader.MalformedException.class);
        }
    }
}
