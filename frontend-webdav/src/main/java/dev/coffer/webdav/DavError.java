package dev.coffer.webdav;

/**
 * A refusal to send instead of running a method: a status code and, where RFC 4918 names a
 * precondition, its {@code DAV:error} element (e.g. {@code lock-token-submitted}), else no body.
 *
 * <p>Not responsible for writing the response (the servlet is).
 */
record DavError(int status, String errorXml) {
    static DavError of(int status) {
        return new DavError(status, null);
    }

    static DavError withCondition(int status, String conditionXml) {
        return new DavError(status, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:error xmlns:D=\"DAV:\">" + conditionXml
                + "</D:error>");
    }
}
