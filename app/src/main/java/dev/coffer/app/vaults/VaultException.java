package dev.coffer.app.vaults;

import java.io.IOException;

/**
 * A vault operation failed for a reason the UI can explain: the {@link Problem} picks the message,
 * {@link #detail()} adds the specifics (never a passphrase, key or cleartext name).
 */
public final class VaultException extends IOException {
    private static final long serialVersionUID = 1L;

    private final Problem problem;
    private final String detail;

    public VaultException(Problem problem, String detail) {
        super(problem + (detail.isEmpty() ? "" : ": " + detail));
        this.problem = problem;
        this.detail = detail;
    }

    public VaultException(Problem problem, String detail, Throwable cause) {
        this(problem, detail);
        initCause(cause);
    }

    public Problem problem() {
        return problem;
    }

    /** Specifics for the person (a path, what to install); may be empty. */
    public String detail() {
        return detail;
    }
}
