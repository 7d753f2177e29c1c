package dev.coffer.webdav;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Small XML helpers for the request bodies Coffer parses itself (LOCK, PROPPATCH, and PROPFIND's for
 * well-formedness before Milton reads it): a namespace-aware parser
 * with DTDs and external entities off (no XXE, no entity expansion bombs), serialising a node back
 * to text, and escaping text for the responses it writes.
 *
 * <p>Not responsible for what the bodies mean (the method classes and Milton decide).
 */
final class Xml {
    /** Element nesting a body may have: WebDAV bodies need a handful; dead property values get room. */
    static final int MAX_DEPTH = 256;
    private static final String MAX_ELEMENT_DEPTH = "http://www.oracle.com/xml/jaxp/properties/maxElementDepth";

    private Xml() {}

    static Document parse(byte[] body) throws IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            // Deeper bodies are refused: serialising a property value back (PROPPATCH, a LOCK's
            // owner) recurses once per level, and 120,000 nested elements (820 KiB, under the body
            // limit) overflowed the stack, which Jetty logged with the request's secret URL.
            f.setAttribute(MAX_ELEMENT_DEPTH, String.valueOf(MAX_DEPTH));
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new DefaultHandler()); // throw on fatal errors without printing them to stderr
            return b.parse(new ByteArrayInputStream(body));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("malformed XML body", e);
        }
    }

    /** The node as XML text, without an XML declaration. */
    static String serialize(Node node) throws IOException {
        try {
            TransformerFactory tf = TransformerFactory.newInstance();
            tf.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            tf.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
            Transformer t = tf.newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            StringWriter w = new StringWriter();
            t.transform(new DOMSource(node), new StreamResult(w));
            return w.toString();
        } catch (TransformerException e) {
            throw new IOException("cannot serialise XML", e);
        }
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
