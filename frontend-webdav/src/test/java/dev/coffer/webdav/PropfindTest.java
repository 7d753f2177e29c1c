package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Coffer's streamed PROPFIND against a real vault: a Depth 1 listing of thousands of members
 * arrives chunked, is well-formed and complete, and its values agree with GET (length, ETag) and
 * with the tree (collections, dead properties, names that need escaping); {@code prop} requests put
 * what is missing in a 404 propstat; {@code propname} lists names only; a request naming a
 * {@code DAV:} extension property is still answered (by Milton).
 */
class PropfindTest {
    private static final int MEMBERS = 3000;
    private static final String PROP = "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propfind xmlns:D=\"DAV:\">";

    @TempDir
    Path tmp;

    private ServedVault served;
    private DavClient dav;

    @BeforeEach
    void serve() throws IOException {
        served = new ServedVault(tmp);
        dav = new DavClient(served.url());
    }

    @AfterEach
    void stop() throws IOException {
        served.close();
    }

    @Test
    void depthOneListingIsStreamedCompleteAndAgreesWithGet() throws Exception {
        Path many = Files.createDirectory(served.root.resolve("many"));
        for (int i = 0; i < MEMBERS; i++) {
            Files.createFile(many.resolve(String.format("file-%05d.txt", i)));
        }
        Files.createDirectory(many.resolve("sub"));
        Files.write(many.resolve("a&b <c>.txt"), "twelve bytes".getBytes(StandardCharsets.UTF_8));
        assertThat(dav.send("PROPPATCH", "/many/sub", "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop>"
                + "<k xmlns=\"urn:k\">v&amp;w</k></D:prop></D:set></D:propertyupdate>").statusCode()).isEqualTo(207);

        HttpResponse<byte[]> r = dav.send("PROPFIND", "/many/", (String) null, "Depth", "1");
        assertThat(r.statusCode()).isEqualTo(207);
        assertThat(r.headers().firstValue("Content-Length")).as("streamed, not buffered whole").isEmpty();
        Map<String, Element> byHref = responses(parse(r.body()));
        assertThat(byHref).hasSize(MEMBERS + 3);
        String base = served.server.url().replaceFirst("^http://[^/]+", "");
        assertThat(byHref).containsKeys(base + "many/", base + "many/sub/", base + "many/file-00000.txt", base + "many/file-02999.txt");

        Element special = byHref.get(base + "many/a&b%20%3Cc%3E.txt");
        assertThat(special).as("escaped href").isNotNull();
        assertThat(text(special, "DAV:", "displayname")).isEqualTo("a&b <c>.txt");
        assertThat(text(special, "DAV:", "getcontentlength")).isEqualTo("12");
        assertThat(text(special, "DAV:", "getcontenttype")).isEqualTo("text/plain");
        HttpResponse<byte[]> get = dav.send("GET", "/many/a%26b%20%3Cc%3E.txt", (String) null);
        assertThat(text(special, "DAV:", "getetag")).isEqualTo(get.headers().firstValue("ETag").orElseThrow());
        assertThat(text(special, "DAV:", "getlastmodified")).isEqualTo(get.headers().firstValue("Last-Modified").orElseThrow());
        assertThat(special.getElementsByTagNameNS("DAV:", "collection").getLength()).isZero();

        Element sub = byHref.get(base + "many/sub/");
        assertThat(sub.getElementsByTagNameNS("DAV:", "collection").getLength()).isEqualTo(1);
        assertThat(sub.getElementsByTagNameNS("DAV:", "getcontentlength").getLength()).as("a folder has no length").isZero();
        assertThat(text(sub, "urn:k", "k")).as("dead property").isEqualTo("v&w");
        assertThat(text(sub, "DAV:", "creationdate")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(sub.getElementsByTagNameNS("DAV:", "supportedlock").getLength()).isEqualTo(1);
    }

    @Test
    void propRequestPutsWhatIsMissingIn404() throws Exception {
        Files.createDirectory(served.root.resolve("d"));
        HttpResponse<byte[]> r = dav.send("PROPFIND", "/d", PROP + "<D:prop><D:getcontentlength/><D:resourcetype/>"
                + "<x:nope xmlns:x=\"urn:x\"/></D:prop></D:propfind>", "Depth", "0");
        assertThat(r.statusCode()).isEqualTo(207);
        NodeList propstats = parse(r.body()).getElementsByTagNameNS("DAV:", "propstat");
        assertThat(propstats.getLength()).isEqualTo(2);
        Element ok = (Element) propstats.item(0);
        Element missing = (Element) propstats.item(1);
        assertThat(text(ok, "DAV:", "status")).contains("200");
        assertThat(ok.getElementsByTagNameNS("DAV:", "resourcetype").getLength()).isEqualTo(1);
        assertThat(text(missing, "DAV:", "status")).contains("404");
        assertThat(missing.getElementsByTagNameNS("DAV:", "getcontentlength").getLength()).isEqualTo(1);
        assertThat(missing.getElementsByTagNameNS("urn:x", "nope").getLength()).isEqualTo(1);

        HttpResponse<byte[]> none = dav.send("PROPFIND", "/d", PROP + "<D:prop><x:nope xmlns:x=\"urn:x\"/></D:prop></D:propfind>", "Depth", "0");
        NodeList only = parse(none.body()).getElementsByTagNameNS("DAV:", "propstat");
        assertThat(only.getLength()).as("no empty 200 propstat").isEqualTo(1);
        assertThat(text((Element) only.item(0), "DAV:", "status")).contains("404");
    }

    @Test
    void propnameListsNamesWithoutValues() throws Exception {
        Files.write(served.root.resolve("f.bin"), new byte[5]);
        Document d = parse(dav.send("PROPFIND", "/f.bin", PROP + "<D:propname/></D:propfind>", "Depth", "0").body());
        assertThat(d.getElementsByTagNameNS("DAV:", "getcontentlength").getLength()).isEqualTo(1);
        assertThat(d.getElementsByTagNameNS("DAV:", "getcontentlength").item(0).getTextContent()).isEmpty();
        assertThat(d.getElementsByTagNameNS("DAV:", "getetag").item(0).getTextContent()).isEmpty();
    }

    @Test
    void extensionPropertiesAreAnsweredByMilton() throws Exception {
        Files.write(served.root.resolve("f.bin"), new byte[5]);
        HttpResponse<byte[]> r = dav.send("PROPFIND", "/", PROP + "<D:prop><D:quota-available-bytes/><D:getcontentlength/>"
                + "</D:prop></D:propfind>", "Depth", "1");
        assertThat(r.statusCode()).isEqualTo(207);
        Map<String, Element> byHref = responses(parse(r.body()));
        String base = served.server.url().replaceFirst("^http://[^/]+", "");
        assertThat(text(byHref.get(base + "f.bin"), "DAV:", "getcontentlength")).isEqualTo("5");
    }

    private static Document parse(byte[] xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    }

    private static Map<String, Element> responses(Document d) {
        Map<String, Element> out = new HashMap<>();
        NodeList list = d.getElementsByTagNameNS("DAV:", "response");
        for (int i = 0; i < list.getLength(); i++) {
            Element e = (Element) list.item(i);
            String href = e.getElementsByTagNameNS("DAV:", "href").item(0).getTextContent();
            assertThat(out.put(href, e)).as("one response per href: " + href).isNull();
        }
        return out;
    }

    private static String text(Element e, String ns, String local) {
        NodeList l = e.getElementsByTagNameNS(ns, local);
        assertThat(l.getLength()).as(local).isEqualTo(1);
        return l.item(0).getTextContent();
    }
}
