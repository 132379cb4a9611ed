package io.strata.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * {@code strata info PATH...}: what the mount knows about each path, from its virtual
 * {@code user.strata.info} attribute (a JSON object the daemon computes; see
 * io.strata.client.InodeInfo): the inode, its links, where its data lives in the under storage at
 * which version, and its pages in each cache tier. {@code --json} prints that object as it is.
 */
@Command(name = "info", sortOptions = false,
        description = {"Show what a Strata mount knows about files: inode, type, size, links, the under-storage",
                "path and version, and the cached pages per tier. PATHs are inside a mount."})
final class InfoCommand extends StrataSubcommand {
    private static final String XATTR = "strata.info"; // user.strata.info, as UserDefinedFileAttributeView names it

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Files or directories inside a Strata mount.")
    List<Path> paths;

    @Option(names = "--json", description = "Print the mount's JSON object for each path, one per line.")
    boolean json;

    @Override
    int run() throws IOException {
        for (Path path : paths) {
            Path absolute = path.toAbsolutePath().normalize();
            if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
                throw CliException.badInput(path + " does not exist");
            }
            if (WarmupCommand.findMount(absolute).isEmpty()) {
                throw CliException.badInput(path + " is not inside a Strata mount; give a path under the"
                        + " mountpoint of 'strata mount'");
            }
            String value = read(absolute);
            if (json) {
                out().println(value);
            } else {
                print(absolute, parse(value));
            }
        }
        return ExitCodes.OK;
    }

    /** The attribute's value; for a symlink its target's (Linux keeps user.* attributes off symlinks). */
    private static String read(Path path) {
        try {
            UserDefinedFileAttributeView view = Files.getFileAttributeView(path, UserDefinedFileAttributeView.class);
            ByteBuffer value = ByteBuffer.allocate(view.size(XATTR));
            view.read(XATTR, value);
            return new String(value.array(), 0, value.position(), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw CliException.badInput(path + " does not exist");
        } catch (IOException | RuntimeException e) {
            throw CliException.failure("cannot read the Strata info of " + path + " (" + Messages.describe(e)
                    + "); is the mount a Strata mount of this version, with xattrs on?");
        }
    }

    /** The object's members in order; a nested object (cached_pages) as a map of its own. */
    static Map<String, Object> parse(String value) throws IOException {
        try (JsonParser parser = new JsonFactory().createParser(value)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object: " + value);
            }
            return object(parser);
        }
    }

    private static Map<String, Object> object(JsonParser parser) throws IOException {
        Map<String, Object> members = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            members.put(name, token == JsonToken.START_OBJECT ? object(parser)
                    : token == JsonToken.VALUE_NULL ? null : parser.getValueAsString());
        }
        return members;
    }

    private void print(Path path, Map<String, Object> info) {
        PrintWriter out = out();
        out.println(path);
        line(out, "inode", info.get("ino") + " (" + info.get("type") + ", mode " + info.get("mode") + ", uid "
                + info.get("uid") + ", gid " + info.get("gid") + ")");
        line(out, "size", info.get("size") + " bytes");
        line(out, "links", info.get("nlink") + " (primary link " + info.get("primary_link") + ")");
        String root = String.valueOf(info.get("ufs_uri"));
        String ufsPath = String.valueOf(info.get("ufs_path"));
        line(out, "under storage", ufsPath.isEmpty() ? root : root + "/" + ufsPath);
        line(out, "version", info.get("version") == null ? "(none recorded)" : String.valueOf(info.get("version")));
        if (info.containsKey("open_version")) {
            line(out, "open version", String.valueOf(info.get("open_version")));
        }
        if (info.get("cached_pages") instanceof Map<?, ?> tiers) {
            if (tiers.isEmpty()) {
                line(out, "cached pages", "no page cache");
            } else {
                StringJoiner perTier = new StringJoiner(", ");
                tiers.forEach((tier, pages) -> perTier.add(tier + " " + pages));
                line(out, "cached pages", perTier + " of " + info.get("pages") + " (pages of "
                        + info.get("page_size") + " bytes)");
            }
        }
    }

    private static void line(PrintWriter out, String label, String value) {
        out.printf("  %-14s %s%n", label + ":", value);
    }
}
