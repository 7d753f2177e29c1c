package dev.coffer.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The version for {@code --version}, from a resource the build fills in (so it is right in tests
 * too, where there is no jar manifest). Not responsible for anything else.
 */
final class VersionProvider implements IVersionProvider {
    static final String RESOURCE = "/dev/coffer/app/version.properties";

    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        }
        return new String[] {"coffer " + p.getProperty("version", "(unknown version)")};
    }
}
