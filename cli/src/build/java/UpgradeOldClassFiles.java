import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * A build step of the cli module (run by the pom after the shade plugin, as a single-file source
 * program): rewrites the class files in the shaded jar that are older than Java 6 (major version
 * below 50) as Java 8 class files, with the stack map frames those need computed by ASM.
 *
 * <p>Why: the JDK's class-data sharing archive and AOT cache, which {@code bin/strata} makes for a
 * mount, cannot hold such old classes (the JDK logs "Old class has been linked" and skips them),
 * so every mount loaded, verified and linked them from the jar. picocli ships Java 5 class files:
 * its 176 classes took 0.27 s of a fresh mount's 0.8-1.0 s (docs/PERFORMANCE.md, issue 11,
 * eleventh round).
 * The bytecode is unchanged; only the version and the frames are new, and the JVM's type-checking
 * verifier checks those frames whenever such a class loads.
 *
 * <p>Usage: {@code java -cp asm.jar UpgradeOldClassFiles SHADED JAR}: JAR is SHADED upgraded, written
 * as a new file and renamed over the old JAR. Never in place: a JVM still running the old JAR (a
 * mount daemon) reads its classes from the open file as it needs them, and a JAR rewritten under
 * it fails its next class load.
 */
public final class UpgradeOldClassFiles {
    private static final int JAVA_6 = 50;

    private UpgradeOldClassFiles() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: UpgradeOldClassFiles SHADED JAR");
        }
        Path shaded = Path.of(args[0]);
        Path jar = Path.of(args[1]);
        Path upgraded = jar.resolveSibling(jar.getFileName() + ".upgrading");
        Map<String, Integer> perPackage = new TreeMap<>();
        // frames need the common superclass of two types: the jar's own classes, then the JDK's
        try (URLClassLoader classes = new URLClassLoader(new URL[] {shaded.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
             ZipInputStream in = new ZipInputStream(Files.newInputStream(shaded));
             OutputStream file = Files.newOutputStream(upgraded);
             ZipOutputStream out = new ZipOutputStream(file)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                if (entry.getName().endsWith(".class") && majorVersion(bytes) < JAVA_6) {
                    bytes = upgrade(bytes, classes);
                    perPackage.merge(packageOf(entry.getName()), 1, Integer::sum);
                }
                ZipEntry copy = new ZipEntry(entry.getName());
                copy.setTime(entry.getTime());
                out.putNextEntry(copy);
                out.write(bytes);
                out.closeEntry();
            }
        }
        Files.move(upgraded, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("[strata] class files older than Java 6 rewritten as Java 8 in " + jar.getFileName() + ": "
                + (perPackage.isEmpty() ? "none" : perPackage));
    }

    private static int majorVersion(byte[] classFile) {
        return ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
    }

    private static String packageOf(String entryName) {
        int slash = entryName.lastIndexOf('/');
        return slash < 0 ? "" : entryName.substring(0, slash).replace('/', '.');
    }

    private static byte[] upgrade(byte[] classFile, ClassLoader classes) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return classes;
            }
        };
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(Opcodes.V1_8, access, name, signature, superName, interfaces);
            }
        }, ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }
}
