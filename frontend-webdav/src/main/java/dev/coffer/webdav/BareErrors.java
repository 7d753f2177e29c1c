package dev.coffer.webdav;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's error handler for the requests it refuses itself (malformed or ambiguous URIs, bad Host
 * ports, oversized headers): the status code only. Jetty's default page would echo the request URI
 * and the reason; a refusal here says nothing more than its status.
 *
 * <p>Not responsible for the refusals the servlet decides.
 */
final class BareErrors implements Request.Handler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0L);
        response.getHeaders().remove(HttpHeader.CONTENT_TYPE);
        callback.succeeded();
        return true;
    }
}
