package dev.coffer.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The version for {@code --version}, from a resource the build fills in (so it is right in tests
 * too, where there is no jar manifest), and the Java runtime that runs it. Not responsible for anything else.
 */
final class VersionProvider implements IVersionProvider {
    static final String RESOURCE = "/dev/coffer/app/version.properties";

    /**
     * Which Java runs Coffer (the launcher's: $JAVA_HOME's or the PATH's; a package's own runtime):
     * figures and bug reports depend on it. picocli formats each line, so a '%' in a path is doubled.
     */
    static String javaLine() {
        return javaLine(System.getProperty("java.version"), System.getProperty("java.vendor"), System.getProperty("java.home"));
    }

    static String javaLine(String version, String vendor, String home) {
        return ("Java " + version + " (" + vendor + ", " + home + ")").replace("%", "%%");
    }

    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        }
        return new String[] {"coffer " + p.getProperty("version", "(unknown version)"), javaLine()};
    }
}
