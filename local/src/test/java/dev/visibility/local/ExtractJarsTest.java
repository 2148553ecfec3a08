package dev.visibility.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./suite}'s extraction of the services' jars ({@code extract-jars}) on executable jars laid out as Spring Boot's
 * Maven plugin lays them out: the application jar's manifest and entries, the libraries in class-path order, shared
 * libraries hard-linked once, and a failed extraction leaving the one before.
 */
class ExtractJarsTest {

    @TempDir
    Path dir;

    @Test
    void theApplicationJarHasTheApplicationsClassesAndMainClassAndTheLibrariesInIndexOrder() throws IOException {
        Path jar = executableJar("one", Map.of("a.jar", "library a", "b.jar", "library b"));
        Path apps = dir.resolve("apps");

        int status = run(apps, "one", jar, "123 456");

        assertThat(status).isZero();
        Path app = apps.resolve("one/one.jar");
        try (JarFile extracted = new JarFile(app.toFile())) {
            Attributes main = extracted.getManifest().getMainAttributes();
            assertThat(main.getValue("Main-Class")).isEqualTo("demo.one.Main");
            // the index lists b before a: the class path keeps the index's order
            assertThat(main.getValue("Class-Path")).isEqualTo("lib/b.jar lib/a.jar");
            assertThat(main.getValue("Implementation-Title")).isEqualTo("one");
            assertThat(main.getValue("Start-Class")).isNull();
            assertThat(main.getValue("Spring-Boot-Lib")).isNull();
            assertThat(main.getValue("Spring-Boot-Classpath-Index")).isNull();
            List<String> names = extracted.stream().map(ZipEntry::getName).toList();
            assertThat(names).contains("demo/one/Main.class", "application.yml", "META-INF/maven/demo/one/pom.properties")
                    .noneMatch(n -> n.startsWith("BOOT-INF/"))
                    .noneMatch(n -> n.startsWith("org/springframework/boot/loader/"))
                    .doesNotContain("META-INF/services/java.nio.file.spi.FileSystemProvider");
            assertThat(new String(extracted.getInputStream(extracted.getEntry("application.yml")).readAllBytes(),
                    StandardCharsets.UTF_8)).isEqualTo("resource of one");
            assertThat(extracted.getEntry("demo/one/Main.class").getMethod()).isEqualTo(ZipEntry.STORED);
        }
        assertThat(Files.readString(apps.resolve("one/lib/a.jar"))).isEqualTo("library a");
        assertThat(Files.readString(apps.resolve("one/lib/b.jar"))).isEqualTo("library b");
        assertThat(Files.readString(apps.resolve("one/source.stamp"))).isEqualTo("123 456\n");
        assertThat(apps.resolve(".one.tmp")).doesNotExist();
    }

    @Test
    void aLibraryWithTheSameBytesIsKeptOnceAndOneThatDiffersStaysTheServicesOwn() throws IOException {
        Path one = executableJar("one", Map.of("a.jar", "library a", "b.jar", "library b"));
        Path two = executableJar("two", Map.of("a.jar", "library a", "b.jar", "another b"));
        Path apps = dir.resolve("apps");

        assertThat(run(apps, "one", one, "1 1", "two", two, "2 2")).isZero();

        Path shared = apps.resolve(ExtractJars.SHARED);
        assertThat(Files.isSameFile(apps.resolve("one/lib/a.jar"), shared.resolve("a.jar"))).isTrue();
        assertThat(Files.isSameFile(apps.resolve("two/lib/a.jar"), shared.resolve("a.jar"))).isTrue();
        // b differs: one of the two is the shared copy, the other has its own, each with its jar's bytes
        assertThat(Files.readString(apps.resolve("one/lib/b.jar"))).isEqualTo("library b");
        assertThat(Files.readString(apps.resolve("two/lib/b.jar"))).isEqualTo("another b");
        assertThat(Files.isSameFile(apps.resolve("one/lib/b.jar"), apps.resolve("two/lib/b.jar"))).isFalse();
    }

    @Test
    void aServiceExtractedAgainKeepsTheOthersLibrariesAsTheyWere() throws IOException {
        Path apps = dir.resolve("apps");
        Path one = executableJar("one", Map.of("a.jar", "library a"));
        Path two = executableJar("two", Map.of("a.jar", "library a"));
        assertThat(run(apps, "one", one, "1 1", "two", two, "2 2")).isZero();

        // one is rebuilt with a new version of a: a later extraction of it alone
        Path rebuilt = executableJar("one", Map.of("a.jar", "library a, new"));
        assertThat(run(apps, "one", rebuilt, "3 3")).isZero();

        assertThat(Files.readString(apps.resolve("one/lib/a.jar"))).isEqualTo("library a, new");
        assertThat(Files.readString(apps.resolve("one/source.stamp"))).isEqualTo("3 3\n");
        // two's link (and any archive trained on it) keeps the bytes it had
        assertThat(Files.readString(apps.resolve("two/lib/a.jar"))).isEqualTo("library a");
        assertThat(Files.readString(apps.resolve(ExtractJars.SHARED).resolve("a.jar"))).isEqualTo("library a, new");
    }

    @Test
    void aJarThatIsNotExecutableFailsAndLeavesTheExtractionBeforeIt() throws IOException {
        Path apps = dir.resolve("apps");
        Path one = executableJar("one", Map.of("a.jar", "library a"));
        assertThat(run(apps, "one", one, "1 1")).isZero();
        Path plain = dir.resolve("plain.jar");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(plain))) {
            put(out, "demo/Plain.class", "not executable".getBytes(StandardCharsets.UTF_8), ZipEntry.DEFLATED);
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = new ExtractJars(apps).run(List.of("one", plain.toString(), "9 9"), new PrintStream(err, true));

        assertThat(status).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("one: could not extract").contains("no Start-Class");
        assertThat(Files.readString(apps.resolve("one/source.stamp"))).isEqualTo("1 1\n");
        assertThat(apps.resolve("one/one.jar")).exists();
        assertThat(apps.resolve(".one.tmp")).doesNotExist();
    }

    @Test
    void badArgumentsAreRefusedWithExitCode2() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true);
        PrintStream e = new PrintStream(err, true);

        assertThat(SuiteCli.run(new String[] {"extract-jars", dir.toString(), "one", "x.jar"}, o, e)).isEqualTo(2);
        Path jar = dir.resolve("one.jar");
        // a bad name anywhere stops the command before any extraction starts
        assertThat(SuiteCli.run(new String[] {"extract-jars", dir.resolve("apps").toString(), "one", jar.toString(), "1 1",
                "../up", "x.jar", "1 1"}, o, e)).isEqualTo(2);
        assertThat(dir.resolve("apps")).doesNotExist();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("extract-jars APPS NAME JAR STAMP").contains("not a service name: ../up");
    }

    private int run(Path apps, Object... triples) {
        List<String> words = new ArrayList<>();
        words.add("extract-jars");
        words.add(apps.toString());
        for (Object word : triples) {
            words.add(word.toString());
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SuiteCli.run(words.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true),
                new PrintStream(err, true));
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        return status;
    }

    /**
     * An executable jar as Spring Boot's Maven plugin writes it: the launcher at the root, the application under
     * {@code BOOT-INF/classes/}, libraries stored under {@code BOOT-INF/lib/}, listed in reverse name order by the index.
     */
    private Path executableJar(String name, Map<String, String> libraries) throws IOException {
        Path jar = Files.createTempFile(dir, name, ".jar");
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Implementation-Title", name);
        main.putValue("Main-Class", "org.springframework.boot.loader.launch.JarLauncher");
        main.putValue("Start-Class", "demo." + name + ".Main");
        main.putValue("Spring-Boot-Classes", "BOOT-INF/classes/");
        main.putValue("Spring-Boot-Lib", "BOOT-INF/lib/");
        main.putValue("Spring-Boot-Classpath-Index", "BOOT-INF/classpath.idx");
        Map<String, String> ordered = new LinkedHashMap<>();
        libraries.keySet().stream().sorted(java.util.Comparator.reverseOrder()).forEach(k -> ordered.put(k, libraries.get(k)));
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream out = new ZipOutputStream(file)) {
            ByteArrayOutputStream manifestBytes = new ByteArrayOutputStream();
            manifest.write(manifestBytes);
            put(out, "META-INF/MANIFEST.MF", manifestBytes.toByteArray(), ZipEntry.DEFLATED);
            put(out, "META-INF/services/java.nio.file.spi.FileSystemProvider",
                    "org.springframework.boot.loader.nio.file.NestedFileSystemProvider\n".getBytes(StandardCharsets.UTF_8), ZipEntry.DEFLATED);
            put(out, "org/springframework/boot/loader/launch/JarLauncher.class", new byte[] {(byte) 0xCA, (byte) 0xFE}, ZipEntry.DEFLATED);
            put(out, "BOOT-INF/classes/demo/" + name + "/Main.class", new byte[] {(byte) 0xCA, (byte) 0xFE, 1}, ZipEntry.DEFLATED);
            put(out, "BOOT-INF/classes/application.yml", ("resource of " + name).getBytes(StandardCharsets.UTF_8), ZipEntry.DEFLATED);
            put(out, "META-INF/maven/demo/" + name + "/pom.properties", "version=1".getBytes(StandardCharsets.UTF_8), ZipEntry.DEFLATED);
            StringBuilder index = new StringBuilder();
            for (Map.Entry<String, String> library : ordered.entrySet()) {
                put(out, "BOOT-INF/lib/" + library.getKey(), library.getValue().getBytes(StandardCharsets.UTF_8), ZipEntry.STORED);
                index.append("- \"BOOT-INF/lib/").append(library.getKey()).append("\"\n");
            }
            put(out, "BOOT-INF/classpath.idx", index.toString().getBytes(StandardCharsets.UTF_8), ZipEntry.DEFLATED);
        }
        return jar;
    }

    private static void put(ZipOutputStream out, String name, byte[] bytes, int method) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(method);
        if (method == ZipEntry.STORED) {
            CRC32 crc = new CRC32();
            crc.update(bytes);
            entry.setSize(bytes.length);
            entry.setCompressedSize(bytes.length);
            entry.setCrc(crc.getValue());
        }
        out.putNextEntry(entry);
        out.write(bytes);
        out.closeEntry();
    }
}
