package io.strata.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * User and group names for the numeric ids the metastore keeps (a FUSE mount's owners are
 * numbers): Hadoop shows and sets owners by name. Names come from this machine's passwd and group
 * files; an id without a name shows as its number, and a number given as a name is taken as it is,
 * so owners round-trip between machines whose files differ.
 */
final class UnixNames {
    private final Map<Integer, String> userNames;
    private final Map<String, Integer> userIds;
    private final Map<Integer, String> groupNames;
    private final Map<String, Integer> groupIds;

    private UnixNames(Map<Integer, String> users, Map<Integer, String> groups) {
        this.userNames = users;
        this.groupNames = groups;
        this.userIds = inverse(users);
        this.groupIds = inverse(groups);
    }

    /** The names in /etc/passwd and /etc/group, plus this process's own user (a container's may be missing). */
    static UnixNames system(int uid, String user) {
        Map<Integer, String> users = read(Path.of("/etc/passwd"));
        users.putIfAbsent(uid, user);
        return new UnixNames(users, read(Path.of("/etc/group")));
    }

    String user(int uid) {
        return userNames.getOrDefault(uid, Integer.toString(uid));
    }

    String group(int gid) {
        return groupNames.getOrDefault(gid, Integer.toString(gid));
    }

    OptionalInt uid(String name) {
        return id(name, userIds);
    }

    OptionalInt gid(String name) {
        return id(name, groupIds);
    }

    private static OptionalInt id(String name, Map<String, Integer> ids) {
        Integer id = ids.get(name);
        if (id != null) {
            return OptionalInt.of(id);
        }
        return name.matches("[0-9]{1,9}") ? OptionalInt.of(Integer.parseInt(name)) : OptionalInt.empty();
    }

    /** {@code name:x:id:...} lines: the first two fields of each (the format of passwd(5) and group(5)). */
    private static Map<Integer, String> read(Path file) {
        Map<Integer, String> names = new HashMap<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            return names; // no such file: ids show as numbers
        }
        for (String line : lines) {
            String[] fields = line.split(":", 4);
            if (fields.length >= 3 && fields[2].matches("[0-9]{1,9}")) {
                names.putIfAbsent(Integer.parseInt(fields[2]), fields[0]);
            }
        }
        return names;
    }

    private static Map<String, Integer> inverse(Map<Integer, String> names) {
        Map<String, Integer> ids = new HashMap<>();
        names.forEach((id, name) -> ids.putIfAbsent(name, id));
        return ids;
    }
}
